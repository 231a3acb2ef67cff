"""The moderator's loop by mail (`pbem mail run GAME`): fetch the players' orders over IMAP, check
the sender and the game password, store and check every version, reply with the orders as
understood, adjudicate when every awaited role has valid orders, mail each player the reports they
may see, remind before the deadline and apply the missing-orders policy after it (docs/moderating.md).

A pass is safe to repeat from cron: a journal in GAME/mail/ names every message handled, and each
outgoing mail waits in GAME/mail/outbox/ under a name drawn from what it is (the reply to one
message, one player's report of one turn) until the server takes it, when it moves to mail/sent/.
"""
