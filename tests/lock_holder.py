"""A second process that holds a SQLite lock on a database until told to let go (tests only).

    python tests/lock_holder.py DATABASE write|exclusive

``write``: BEGIN IMMEDIATE plus a row (what another program writing to the file does); ``exclusive``: an
exclusive lock in exclusive locking mode (not even readers get in). Prints LOCKED, waits for a line on
stdin, then rolls back and exits.
"""

import sqlite3
import sys


def main() -> int:
    path, mode = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(path, isolation_level=None, timeout=10)
    if mode == "exclusive":
        db.execute("PRAGMA locking_mode=EXCLUSIVE")
        db.execute("BEGIN EXCLUSIVE")
    else:
        db.execute("BEGIN IMMEDIATE")
    db.execute("CREATE TABLE IF NOT EXISTS lock_holder_scratch (x)")
    db.execute("INSERT INTO lock_holder_scratch VALUES (1)")
    print("LOCKED", flush=True)
    sys.stdin.readline()
    db.execute("ROLLBACK")
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
