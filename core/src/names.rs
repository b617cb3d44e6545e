//! Settings whose values are names (`read-only`, `truncate`, `skip`): one
//! table per type, read the same way on every surface (a flag, a JSON
//! field, a keyword argument), with one error that lists the valid names.

use thiserror::Error;

/// serde, for [`named!`](crate::named) in crates that do not depend on it.
#[doc(hidden)]
pub use serde as __serde;

/// A name that is none of a setting's valid names.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("`{given}` is not one of {}", .valid.join(", "))]
pub struct UnknownName {
    /// What was given.
    pub given: String,
    /// The valid names, in their documented order.
    pub valid: &'static [&'static str],
}

/// A type whose values are spelled by name (`FromStr`, `Display` and serde
/// follow the table).
pub trait Named: Sized + Copy + PartialEq + 'static {
    /// Every value and its name, in documented order.
    const TABLE: &'static [(&'static str, Self)];
    /// The names alone, in the same order.
    const NAMES: &'static [&'static str];

    /// The value's name.
    fn name(self) -> &'static str {
        Self::TABLE
            .iter()
            .find(|(_, value)| *value == self)
            .map(|(name, _)| *name)
            .expect("every value is in the table")
    }

    /// The value named `name`.
    fn from_name(name: &str) -> Result<Self, UnknownName> {
        Self::TABLE
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, value)| *value)
            .ok_or_else(|| UnknownName {
                given: name.to_string(),
                valid: Self::NAMES,
            })
    }
}

/// Implements [`Named`], `FromStr`, `Display`, `Serialize` and
/// `Deserialize` for an enum from its table of names.
#[macro_export]
macro_rules! named {
    ($type:ty { $($name:literal => $value:expr),+ $(,)? }) => {
        impl $crate::names::Named for $type {
            const TABLE: &'static [(&'static str, Self)] = &[$(($name, $value)),+];
            const NAMES: &'static [&'static str] = &[$($name),+];
        }
        impl ::std::str::FromStr for $type {
            type Err = $crate::names::UnknownName;
            fn from_str(name: &str) -> ::std::result::Result<Self, Self::Err> {
                <$type as $crate::names::Named>::from_name(name)
            }
        }
        impl ::std::fmt::Display for $type {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::names::Named::name(*self))
            }
        }
        impl $crate::names::__serde::Serialize for $type {
            fn serialize<S: $crate::names::__serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str($crate::names::Named::name(*self))
            }
        }
        impl<'de> $crate::names::__serde::Deserialize<'de> for $type {
            fn deserialize<D: $crate::names::__serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let name = <::std::string::String as $crate::names::__serde::Deserialize>::deserialize(deserializer)?;
                <$type as $crate::names::Named>::from_name(&name).map_err($crate::names::__serde::de::Error::custom)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::Overflow;

    #[test]
    fn names_read_and_print_alike_everywhere() {
        assert_eq!("truncate".parse::<Overflow>(), Ok(Overflow::Truncate));
        assert_eq!(Overflow::Fail.to_string(), "fail");
        let error = "drop".parse::<Overflow>().unwrap_err();
        assert_eq!(error.to_string(), "`drop` is not one of fail, truncate");
        assert_eq!(
            serde_json::to_string(&Overflow::Truncate).unwrap(),
            "\"truncate\""
        );
        let refused = serde_json::from_str::<Overflow>("\"drop\"").unwrap_err();
        assert!(refused.to_string().contains("is not one of fail, truncate"));
    }
}
