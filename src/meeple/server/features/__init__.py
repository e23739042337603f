"""The site's features, one package each (accounts, profiles, ratings, play now, chat, mail,
rules, sheets, solo): each holds its routes, its service and its store's queries. A feature
depends on the table core (:mod:`meeple.server.table`), the edge and the store's base, never on
another feature except through the named interfaces the import-linter contracts list."""
