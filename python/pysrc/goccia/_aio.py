"""The asyncio variants of the run calls: the run goes on a thread of its
own (the GIL released), and its end settles a future on the caller's loop.
Cancelling the awaiting task cancels the run."""

import asyncio

from goccia._goccia import CancelToken


def _settle(future, run, error):
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(run)


async def arun(sandbox, kind, source, timeout, cancel, stdin):
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    token = cancel if cancel is not None else CancelToken()

    def done(run, error):
        loop.call_soon_threadsafe(_settle, future, run, error)

    sandbox._spawn(kind, source, timeout, token, stdin, done)
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        token.cancel()
        raise
