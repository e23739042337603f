// The table chat (src/meeple/server/features/chat/README.md, the server's side and the page's). The page
// asks for it in its hello (`chat: true`) and hands every `chat` frame, and every `error`
// frame marked `chat`, to the panel made here. Each message shows its time, its author's name
// (marked "spectator" for a spectator) and its text, always as text (textContent: a message
// holding markup shows the markup). A message is sent with Enter or Send; a counter appears
// near the 500-character limit. Each author can be muted in this browser (localStorage,
// meeple.muted, by the server's author key: a muted author's messages fold into "N muted
// messages"; the list of muted players unmutes), and a message can be reported with a reason
// typed in the panel (the server's answer is shown). Nothing here is a rule: the server says
// who may post and refuses what it must.
import { api, el } from "../js/common.js";

/** The longest message, in characters (the server's rule). */
export const MAX = 500;
/** The counter shows from this many characters on. */
export const NEAR = 400;
/** The longest report reason. */
export const MAX_REASON = 300;
/** The messages the panel keeps (the server sends the last 50 at a hello). */
const KEEP = 200;
const MUTED_KEY = "meeple.muted";

/** Whether a table has a chat: a table of bots only has none. */
export function hasChat(table) {
  return Boolean(table && table.seats.some((s) => s.kind === "human"));
}

/** The authors muted in this browser: {author key: the name shown when muted}. */
export function mutedAuthors() {
  try {
    const got = JSON.parse(localStorage.getItem(MUTED_KEY) || "{}");
    return got && typeof got === "object" && !Array.isArray(got) ? got : {};
  } catch {
    return {};
  }
}

function setMuted(all) { localStorage.setItem(MUTED_KEY, JSON.stringify(all)); }

/** Characters as the server counts them (code points, ends trimmed, runs of spaces one). */
export function length(text) { return [...text.trim().replace(/\s+/g, " ")].length; }

function clock(at) {
  const when = new Date(at);
  return Number.isNaN(when.getTime()) ? ""
    : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/**
 * The chat panel, to mount in the page: {element, onFrame(frame), readOnly(note), load()}.
 * `send(frame)` sends a frame over the table's WebSocket.
 */
export function chatPanel(tableId, send) {
  const state = {
    messages: [],       // as the server sent them, oldest first
    you: null,          // the author key of this page's messages (null: cannot post)
    canPost: false,
    pending: null,      // the text of a message sent and not answered yet
    reporting: null,    // the message a report is being written for
  };
  const list = el("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite",
    "aria-label": "messages" });
  const note = el("p", { class: "chat-note small", id: "chat-note", role: "status" });
  const input = el("input", { id: "chat-input", type: "text", autocomplete: "off",
    placeholder: "Say something to the table", "aria-label": "Your message", disabled: true });
  const sendButton = el("button", { class: "primary", id: "chat-send", type: "submit", disabled: true },
    "Send");
  const count = el("span", { class: "chat-count small hidden", id: "chat-count", "aria-live": "polite" });
  const form = el("form", { class: "chat-form", id: "chat-form" }, input, sendButton, count);
  const reportBox = el("div", { class: "chat-report hidden", id: "chat-report" });
  const mutedBox = el("details", { class: "chat-muted small hidden", id: "chat-muted" });
  const element = el("section", { class: "card chat", id: "chat", "aria-labelledby": "chat-title" },
    el("h2", { id: "chat-title" }, "Table chat"), list, note, form, reportBox, mutedBox);

  function say(text, kind = "") {
    note.replaceChildren(text);
    note.className = `chat-note small ${kind}`;
  }

  function refreshForm() {
    const n = length(input.value);
    const near = n >= NEAR;
    count.classList.toggle("hidden", !near);
    count.classList.toggle("over", n > MAX);
    count.textContent = n > MAX ? `${n}/${MAX}: too long` : `${n}/${MAX}`;
    input.disabled = !state.canPost;
    sendButton.disabled = !state.canPost || state.pending !== null || n === 0 || n > MAX;
  }

  function messageItem(m) {
    const mine = state.you !== null && m.author === state.you;
    const who = el("span", { class: "chat-name" }, m.name);
    const item = el("li", { class: `chat-msg${mine ? " mine" : ""}`, "data-id": m.id,
      "data-author": m.author },
    el("time", { class: "chat-time", datetime: m.at, title: new Date(m.at).toLocaleString() }, clock(m.at)),
    " ", who, m.spectator ? el("span", { class: "chat-tag" }, " (spectator)") : null, ": ",
    el("span", { class: "chat-text" }, m.text));
    if (!mine) {
      item.append(el("span", { class: "chat-actions" },
        el("button", { type: "button", class: "chat-mute small", title: `Mute ${m.name} in this browser`,
          onclick: () => mute(m) }, "Mute"),
        el("button", { type: "button", class: "chat-report-button small",
          title: "Report this message to the moderators", onclick: () => startReport(m) }, "Report")));
    }
    return item;
  }

  function folded(run) {
    const n = run.length;
    return el("li", { class: "chat-folded" },
      el("details", {}, el("summary", {}, `${n} muted message${n === 1 ? "" : "s"}`),
        el("ol", { class: "chat-list inner" }, run.map((m) => messageItem(m)))));
  }

  function render() {
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const muted = mutedAuthors();
    const items = [];
    let run = [];
    for (const m of state.messages) {
      if (muted[m.author] !== undefined && m.author !== state.you) { run.push(m); continue; }
      if (run.length) { items.push(folded(run)); run = []; }
      items.push(messageItem(m));
    }
    if (run.length) items.push(folded(run));
    if (!items.length) items.push(el("li", { class: "chat-empty muted small" }, "No messages yet."));
    list.replaceChildren(...items);
    if (atEnd) list.scrollTop = list.scrollHeight;
    renderMuted(muted);
    refreshForm();
  }

  function renderMuted(muted) {
    const keys = Object.keys(muted);
    mutedBox.classList.toggle("hidden", !keys.length);
    mutedBox.replaceChildren(el("summary", {}, `Muted players (${keys.length})`),
      el("ul", {}, keys.map((key) => el("li", {}, el("span", {}, String(muted[key])), " ",
        el("button", { type: "button", class: "small chat-unmute", onclick: () => unmute(key) },
          "Unmute")))));
  }

  function mute(m) {
    const all = mutedAuthors();
    all[m.author] = m.name;
    setMuted(all);
    say(`${m.name} is muted in this browser. Unmute in "Muted players".`);
    render();
  }

  function unmute(key) {
    const all = mutedAuthors();
    const name = all[key];
    delete all[key];
    setMuted(all);
    say(`${name} is no longer muted.`);
    render();
  }

  function startReport(m) {
    state.reporting = m;
    const reason = el("input", { id: "chat-report-reason", type: "text", autocomplete: "off",
      "aria-label": "Why are you reporting it?", placeholder: "Why? (insults, spam, ...)" });
    const submit = el("button", { class: "primary", type: "submit", id: "chat-report-send" }, "Send report");
    const cancel = el("button", { type: "button", id: "chat-report-cancel", onclick: endReport }, "Cancel");
    const quoted = m.text.length > 80 ? `${m.text.slice(0, 80)}…` : m.text;
    reportBox.replaceChildren(el("form", { class: "chat-report-form", id: "chat-report-form",
      onsubmit: (ev) => { ev.preventDefault(); report(m, reason.value, submit); } },
    el("label", { for: "chat-report-reason" }, `Report ${m.name}'s message “${quoted}” to the moderators:`),
    reason, submit, cancel));
    reportBox.classList.remove("hidden");
    reason.focus();
  }

  function endReport() {
    state.reporting = null;
    reportBox.replaceChildren();
    reportBox.classList.add("hidden");
  }

  async function report(m, text, button) {
    const reason = text.trim();
    if (!reason || [...reason].length > MAX_REASON) {
      say(`A reason is 1 to ${MAX_REASON} characters.`, "error");
      return;
    }
    button.disabled = true;
    try {
      const answer = await api("POST", `/api/tables/${tableId}/chat/${m.id}/report`, { reason });
      endReport();
      say(answer.new ? "Thank you: the moderators will look at it."
        : "You reported this message already: it is with the moderators.", "okay");
    } catch (err) {
      button.disabled = false;
      say(`The report was not sent: ${err.message}`, "error");
    }
  }

  function add(messages) {
    const known = new Set(state.messages.map((m) => m.id));
    state.messages.push(...messages.filter((m) => !known.has(m.id)));
    state.messages.sort((a, b) => a.id - b.id);
    state.messages = state.messages.slice(-KEEP);
  }

  function onFrame(frame) {
    if (frame.type === "error") {
      state.pending = null;
      say(frame.retry ? `${frame.reason}` : `Not sent: ${frame.reason}`, "error");
      refreshForm();
      return;
    }
    if (frame.history) {
      // after each hello: the last messages, and whether this page may post
      const newest = frame.messages.length ? frame.messages[frame.messages.length - 1].id : 0;
      state.messages = state.messages.filter((m) => m.id > newest);
      add(frame.messages);
      state.you = frame.you || null;
      state.canPost = Boolean(frame.post);
      if (!state.canPost) {
        const signIn = frame.reason && frame.reason.startsWith("sign in");
        note.replaceChildren(signIn ? el("span", {}, el("a", { href: "/account" }, "Sign in"),
          " to chat as a spectator; you can read the chat.") : frame.reason || "");
        note.className = "chat-note small muted";
      }
      if (state.pending !== null) {  // sent before the connection dropped: posted or not?
        const posted = frame.messages.some((m) => m.author === state.you && m.text === state.pending);
        if (posted) input.value = "";
        state.pending = null;
      }
    } else if (frame.hidden) {
      const gone = new Set(frame.hidden);
      state.messages = state.messages.filter((m) => !gone.has(m.id));
    } else {
      add(frame.messages);
      if (frame.posted) {
        state.pending = null;
        input.value = "";
        say("");
      }
    }
    render();
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value;
    const n = length(text);
    if (!state.canPost || state.pending !== null || n === 0) return;
    if (n > MAX) { say(`A message is at most ${MAX} characters.`, "error"); return; }
    state.pending = text.trim();
    send({ type: "chat", text });
    refreshForm();
  });
  input.addEventListener("input", refreshForm);

  // read only, from the stored history (a finished game's replay)
  async function load(why) {
    state.canPost = false;
    try {
      const page = await api("GET", `/api/tables/${tableId}/chat`);
      add(page.messages);
    } catch (err) {
      say(`The chat cannot be read: ${err.message}`, "error");
    }
    form.classList.add("hidden");
    if (why) say(why, "muted");
    render();
  }

  render();
  return { element, onFrame, load };
}
