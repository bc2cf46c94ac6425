"""Progress of a long sweep (the cells of `autocoll bench`, the runs of `autocoll programs`):
on a terminal, a bar on stderr with the steps done and the time left (tqdm), each message
printed above it; elsewhere (a log file, CI) each message as one line `[i/N] message`, as
before."""

import sys


class Progress:
    """`total` steps. step(i, message) after step i (1-based), skip(i, message) for a step that
    had nothing to do (done earlier: left out of the time estimate), say(message) for anything
    else; close() at the end (or use it as a context manager)."""

    def __init__(self, total, log=print, unit="cell"):
        self.total, self.log, self.bar = total, log, None
        if sys.stderr.isatty():
            from tqdm import tqdm  # here: the tools import without it (tools/autocoll/manpages.py)
            # Steps take seconds to minutes: every one is drawn (mininterval 0).
            self.bar = tqdm(total=total, file=sys.stderr, unit=unit, dynamic_ncols=True,
                            mininterval=0, leave=False)

    def say(self, message):
        if self.bar is None:
            self.log(message)
            return
        with self.bar.external_write_mode(file=sys.stderr):
            self.log(message)

    def step(self, i, message):
        self.say(f"[{i}/{self.total}] {message}")
        if self.bar is not None:
            self.bar.update(1)

    def skip(self, i, message):
        self.say(f"[{i}/{self.total}] {message}")
        if self.bar is not None:
            self.bar.total -= 1
            self.bar.refresh()

    def close(self):
        if self.bar is not None:
            self.bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
