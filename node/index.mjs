// ESM entry point: the CommonJS module's exports, named.
import goccia from "./index.cjs";

export const {
  Sandbox,
  SnapshotStore,
  startTracing,
  stopTracing,
  GocciaError,
  SpecError,
  SetupError,
  AccessError,
  EscalationError,
  RunError,
  ApplyError,
  WriteBackError,
  SnapshotError,
  ClosedError,
} = goccia;
export default goccia;
