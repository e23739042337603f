// Passkeys in the browser (WebAuthn): the server's options (JSON, bytes as base64url) turned
// into what navigator.credentials.create() and .get() take, and their answers back into JSON
// for the server. No library: the base64url conversion is here. Every failure is an Error whose
// message a person can read (cancelled, no passkeys support, a passkey there already).

// base64url (no padding) <-> bytes
export function fromBase64url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const raw = atob(b64);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes.buffer;
}

export function toBase64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let raw = "";
  for (let i = 0; i < bytes.length; i += 1) raw += String.fromCharCode(bytes[i]);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// Whether this browser can make and use passkeys here (a secure context: https or localhost).
export function passkeysSupported() {
  return Boolean(window.PublicKeyCredential && navigator.credentials && window.isSecureContext);
}

const NO_SUPPORT = "This browser cannot use passkeys here: it has no passkey support, or the "
  + "page is not on a secure address (https, or http://localhost).";

// A person's sentence for what navigator.credentials said.
function explain(err, making) {
  switch (err && err.name) {
    case "NotAllowedError":
    case "AbortError":
      return "No passkey was used: it was cancelled, no passkey was chosen, or the time ran out.";
    case "InvalidStateError":
      return making ? "This device has a passkey for this account already."
        : "That passkey cannot be used here.";
    case "SecurityError":
      return "This address cannot use passkeys: open the site by its name (https, or "
        + "http://localhost), not by an IP address.";
    case "NotSupportedError":
      return "This device cannot make a passkey of the kinds this site takes.";
    default:
      return `The passkey did not work: ${(err && err.message) || err}`;
  }
}

function descriptors(list) {
  return (list || []).map((c) => ({ ...c, id: fromBase64url(c.id) }));
}

// navigator.credentials.create() on the server's {publicKey} options: the answer as JSON.
export async function createPasskey(options) {
  if (!passkeysSupported()) throw new Error(NO_SUPPORT);
  const pk = options.publicKey;
  const publicKey = {
    ...pk,
    challenge: fromBase64url(pk.challenge),
    user: { ...pk.user, id: fromBase64url(pk.user.id) },
    excludeCredentials: descriptors(pk.excludeCredentials),
  };
  let cred;
  try {
    cred = await navigator.credentials.create({ publicKey });
  } catch (err) {
    throw new Error(explain(err, true), { cause: err });
  }
  if (!cred) throw new Error("No passkey was made.");
  const r = cred.response;
  return {
    id: cred.id,
    rawId: toBase64url(cred.rawId),
    type: cred.type,
    authenticatorAttachment: cred.authenticatorAttachment || null,
    clientExtensionResults: {},
    response: {
      clientDataJSON: toBase64url(r.clientDataJSON),
      attestationObject: toBase64url(r.attestationObject),
      transports: typeof r.getTransports === "function" ? r.getTransports().slice(0, 10) : [],
    },
  };
}

// navigator.credentials.get() on the server's {publicKey} options: the answer as JSON.
export async function getPasskey(options) {
  if (!passkeysSupported()) throw new Error(NO_SUPPORT);
  const pk = options.publicKey;
  const publicKey = {
    ...pk,
    challenge: fromBase64url(pk.challenge),
    allowCredentials: descriptors(pk.allowCredentials),
  };
  let cred;
  try {
    cred = await navigator.credentials.get({ publicKey });
  } catch (err) {
    throw new Error(explain(err, false), { cause: err });
  }
  if (!cred) throw new Error("No passkey was used.");
  const r = cred.response;
  return {
    id: cred.id,
    rawId: toBase64url(cred.rawId),
    type: cred.type,
    authenticatorAttachment: cred.authenticatorAttachment || null,
    clientExtensionResults: {},
    response: {
      clientDataJSON: toBase64url(r.clientDataJSON),
      authenticatorData: toBase64url(r.authenticatorData),
      signature: toBase64url(r.signature),
      userHandle: r.userHandle && r.userHandle.byteLength ? toBase64url(r.userHandle) : null,
    },
  };
}
