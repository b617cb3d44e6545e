//! Seed configs: any text is a list of entries or a problem naming one.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = goccia_vfs::seed_config::parse_seed_config(text);
});
