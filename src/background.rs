//! Threads for surfaces that wait asynchronously (Python's asyncio,
//! Node's promises): a finished worker waits for the
//! next task instead of exiting, so an `await` costs a hand-off, not a
//! thread start. There are as many workers as the most tasks that ever ran
//! at once; idle ones sleep on their channel.

use std::sync::Mutex;
use std::sync::mpsc::{self, Sender};
use std::time::{Duration, Instant};

type Task = Box<dyn FnOnce() + Send>;

/// Workers waiting for a task.
static IDLE: Mutex<Vec<Sender<Task>>> = Mutex::new(Vec::new());

/// The next task: a worker that just finished waits on the CPU for a
/// moment (calls come back to back), then sleeps.
fn next(tasks: &mpsc::Receiver<Task>) -> Option<Task> {
    let spin_until = Instant::now() + Duration::from_micros(100);
    while Instant::now() < spin_until {
        match tasks.try_recv() {
            Ok(task) => return Some(task),
            Err(mpsc::TryRecvError::Empty) => std::thread::yield_now(),
            Err(mpsc::TryRecvError::Disconnected) => return None,
        }
    }
    tasks.recv().ok()
}

/// Runs `task` on an idle worker, or on a new one (an error only when a
/// thread cannot be started).
pub fn submit(task: Task) -> std::io::Result<()> {
    let idle = IDLE
        .lock()
        .unwrap_or_else(|poison| poison.into_inner())
        .pop();
    let task = match idle {
        Some(worker) => match worker.send(task) {
            Ok(()) => return Ok(()),
            Err(mpsc::SendError(task)) => task,
        },
        None => task,
    };
    let (sender, tasks) = mpsc::channel::<Task>();
    let own = sender.clone();
    sender.send(task).expect("the receiver is alive");
    std::thread::Builder::new()
        .name("goccia-async".into())
        .spawn(move || {
            while let Some(task) = next(&tasks) {
                task();
                IDLE.lock()
                    .unwrap_or_else(|poison| poison.into_inner())
                    .push(own.clone());
            }
        })?;
    Ok(())
}
