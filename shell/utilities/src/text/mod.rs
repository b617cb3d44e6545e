//! Text streams, line by line or field by field.

pub mod column;
pub mod csplit;
pub mod envsubst;
pub mod fields;
pub mod fmt;
pub mod generate;
pub mod iconv;
pub mod join;
pub mod layout;
pub mod lines;
pub mod look;
pub mod pr;
pub mod sort;
pub mod split;
pub mod tabs;
pub mod tr;
pub mod tsort;
