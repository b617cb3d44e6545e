//! Sizes as people read them (`-h`, `--si`): `ls`, `du` and `df` share
//! this, and it sits below all three.

/// `bytes` as `-h` writes it: powers of 1024, rounded up, one decimal
/// below 10 (`4.0K`, `14K`, `1.5M`).
pub(crate) fn human_size(bytes: u64) -> String {
    human_size_in(bytes, 1024)
}

/// [`human_size`] in powers of `base`: 1024 (`-h`: K, M, …) or 1000
/// (`--si`: k, M, …).
pub(crate) fn human_size_in(bytes: u64, base: u64) -> String {
    if bytes < base {
        return bytes.to_string();
    }
    let first = if base == 1000 { 'k' } else { 'K' };
    let units = [first, 'M', 'G', 'T', 'P'];
    let base = base as f64;
    let mut value = bytes as f64;
    let mut unit = 0;
    value /= base;
    while value >= base && unit + 1 < units.len() {
        value /= base;
        unit += 1;
    }
    if value < 10.0 {
        let rounded = (value * 10.0).ceil() / 10.0;
        if rounded >= 10.0 {
            format!("{:.0}{}", rounded, units[unit])
        } else {
            format!("{:.1}{}", rounded, units[unit])
        }
    } else {
        format!("{:.0}{}", value.ceil(), units[unit])
    }
}
