"""The club server (issue 4): campaigns stored as action logs, rebuilt by replay, played in the browser.

See docs/server-plan.md. The server holds no rules: it stores actions, checks who may act, and turns
requests into actions of the state API.
"""
