//! Files and folders of the VFS.

pub(crate) mod backup;
pub mod copy;
pub mod info;
pub mod install;
pub mod list;
pub(crate) mod ls_colors;
pub(crate) mod ls_options;
pub mod magic;
pub mod make;
pub mod names;
pub mod owner;
pub mod remove;
pub mod rename;
pub(crate) mod sizes;
pub mod stat;
