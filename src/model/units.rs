//! The units the model's numbers carry, so that a length is never added to a speed and a
//! byte count never printed as metres: [`Bytes`], [`Mbps`], [`Millimetres`], [`Nanoseconds`].
//! Each wraps the integer the language's bounds produce; [`get`](Bytes::get) gives it back
//! where arithmetic needs it, and `Display` prints it the way findings and the report do
//! (`model::format`).

use std::fmt;

use serde::Serialize;

use super::format;

macro_rules! unit {
    ($(#[$doc:meta])* $name:ident, $fmt:path) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        #[serde(transparent)]
        pub struct $name(pub u64);

        impl $name {
            /// The number in this unit.
            pub const fn get(self) -> u64 {
                self.0
            }
        }

        impl From<u64> for $name {
            fn from(n: u64) -> Self {
                Self(n)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&$fmt(self.0))
            }
        }
    };
}

unit!(
    /// A size in bytes (`91,476 B`).
    Bytes,
    format::bytes
);
unit!(
    /// A link speed in Mb/s (`400G`).
    Mbps,
    format::speed
);
unit!(
    /// A cable length in millimetres (`2.5 m`).
    Millimetres,
    format::metres
);
unit!(
    /// A time in nanoseconds (`8.66 µs`).
    Nanoseconds,
    format::time
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_print_as_findings_do() {
        assert_eq!(Bytes(91_476).to_string(), "91,476 B");
        assert_eq!(Mbps(400_000).to_string(), "400G");
        assert_eq!(Millimetres(2_500).to_string(), "2.5 m");
        assert_eq!(Nanoseconds(8_660).to_string(), "8.66 µs");
        assert_eq!(Millimetres::from(7).get(), 7);
    }
}
