//! Numbers a spec reads: sizes as a number of bytes or with a `k`/`m`/`g`
//! suffix (`"64m"`), so a JSON file, a flag and a keyword argument all
//! take the same text.

use serde::Deserialize;

/// A size: a non-negative integer, or a string `parse_size` reads.
pub(super) fn size<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Size {
        Number(u64),
        Text(String),
    }
    match Size::deserialize(deserializer)? {
        Size::Number(bytes) => Ok(bytes),
        Size::Text(text) => goccia_core::parse_size(&text).map_err(serde::de::Error::custom),
    }
}

/// [`size`] for a field held as `usize`.
pub(super) fn size_usize<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<usize, D::Error> {
    let bytes = size(deserializer)?;
    usize::try_from(bytes).map_err(|_| serde::de::Error::custom("too large for this machine"))
}
