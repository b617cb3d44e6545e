//! gzip compression and decompression through flate2, as goccia's `gzip`,
//! `tar -z` and the VFS's patches use it, at levels 1, 6 and 9 over two
//! inputs: the best of seven rounds each. Built once per backend (see
//! bench/README.md).

use std::io::{Read, Write};
use std::time::Instant;

fn main() {
    let lock = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock"))
        .expect("the workspace's Cargo.lock");
    let text = lock.repeat(40);
    let numbers: Vec<u8> = (0..300_000)
        .map(|i| format!("{i}\n"))
        .collect::<String>()
        .into_bytes();
    for (name, data) in [("Cargo.lock x40", &text), ("seq 300000", &numbers)] {
        for level in [1u32, 6, 9] {
            let (mut compress, mut decompress, mut size) = (f64::MAX, f64::MAX, 0);
            for _ in 0..7 {
                let started = Instant::now();
                let mut encoder =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
                encoder.write_all(data).expect("in memory");
                let packed = encoder.finish().expect("in memory");
                compress = compress.min(started.elapsed().as_secs_f64());
                size = packed.len();
                let started = Instant::now();
                let mut back = Vec::new();
                flate2::read::GzDecoder::new(&packed[..])
                    .read_to_end(&mut back)
                    .expect("what was written");
                decompress = decompress.min(started.elapsed().as_secs_f64());
                assert_eq!(&back, data);
            }
            println!(
                "{name:16} {:4.1} MB, level {level}: compress {:6.1} ms to {size:8} B, decompress {:5.1} ms",
                data.len() as f64 / 1e6,
                compress * 1e3,
                decompress * 1e3
            );
        }
    }
}
