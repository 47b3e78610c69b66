"""Games kept on disk: saves to go on with, transcripts to replay, both checked before use.

    session.py      Session: a game's setup and moves; its save, read back by replaying the moves
    transcript.py   transcripts (JSON Lines) read back and checked whole
    files.py        the save folder, new save names, atomic writes and what interrupted ones leave
    jsonfile.py     JSON from a file anyone may have written, read within bounds
    integrity.py    the keyed check a save or transcript carries, and the key in the state folder
    schema.py       the schemas in schemas/, and their errors as sentences

Every problem with a file a user gives is a SaveError with a message, never a traceback.
"""
from koloda.session.errors import SaveError
from koloda.session.files import (SaveEntry, default_save_dir, find_save, latest_save, list_saves, new_save_path,
                                  tidy, write_atomically)
from koloda.session.session import SAVE_FORMAT, TRANSCRIPT_FORMAT, Session, game_reference
from koloda.session.transcript import Replay, read_transcript

__all__ = ["SaveError", "Session", "Replay", "read_transcript", "game_reference", "default_save_dir",
           "latest_save", "list_saves", "find_save", "SaveEntry", "new_save_path", "tidy", "write_atomically",
           "SAVE_FORMAT", "TRANSCRIPT_FORMAT"]
