"""The asyncio variants of the run calls: the run goes to a worker thread
(the GIL released). A run that ends within QUICK_WAIT_MICROS is returned at
once; a longer one settles a future on the caller's loop. Cancelling the
awaiting task cancels the run."""

import asyncio

from goccia._goccia import CancelToken


QUICK_WAIT_MICROS = 50
"""How long an `arun_*` call may hold the loop for a run that ends at once."""


def _settle(future, run, error):
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(run)


async def arun(sandbox, kind, source, timeout, cancel, stdin, on_output, cwd=None, env=None):
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    token = cancel if cancel is not None else CancelToken()

    def done(run, error):
        loop.call_soon_threadsafe(_settle, future, run, error)

    pending = sandbox._spawn(kind, source, timeout, token, stdin, on_output, cwd, env, done)
    # A short run ends within microseconds: taking its outcome here saves
    # waking the loop from the worker thread, which costs more.
    quick = pending.wait(QUICK_WAIT_MICROS)
    if quick is not None:
        run, error = quick
        if error is not None:
            raise error
        return run
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        token.cancel()
        raise
