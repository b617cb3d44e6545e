//! The native half of the npm package `goccia` (node/README.md): the
//! library's `Sandbox` behind a napi-rs class. Nothing of the sandbox lives
//! here — each method converts its arguments, calls the facade, and
//! converts back; the JavaScript half (`index.cjs`) gives the API its
//! shape (options objects, `AbortSignal`, error classes, the drop-ins).
//!
//! - `sandbox`: `NativeSandbox`, built from a spec in JSON (docs/spec.md).
//! - `calls`: runs off the JavaScript thread, settled as promises, with
//!   cancellation and streamed output.
//! - `store`: `NativeStore`, where durable snapshots are saved.
//! - `tracing`: `startTracing`/`stopTracing`, spans over OTLP.
//! - `values`: changes, listings, reports as JavaScript values.
//! - `errors`: library errors as JavaScript errors carrying `code`.

mod calls;
mod errors;
mod sandbox;
mod store;
mod tracing;
mod values;

pub use calls::CancelToken;
pub use sandbox::NativeSandbox;
pub use store::NativeStore;
pub use tracing::{start_tracing, stop_tracing};
pub use values::NativeChange;
