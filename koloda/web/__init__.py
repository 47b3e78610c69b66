"""The table in a browser (`koloda serve`, docs/web.md): an ASGI app on Starlette.

    app.py       the pages, the lobby's API and the websocket each seat plays through
    rooms.py     rooms, their seats and secret links, bots, saves after every move
    messages.py  what each seat is sent: its own view of the table, nothing more
    choices.py   the mover's choices: the next tokens of the compact spelling, and the move list
    replays.py   transcripts stepped through in the browser
    uploads.py   rule files from the lobby, checked (--allow-upload)
    static/      the page's script, style and card pictures (package data)

Needs the `web` extra: pip install 'koloda[web]'.
"""
