//! The hex-miniatures rules (`../shared/seeds/3-hex-miniatures-rules.txt`): battalions, cavalry
//! regiments and batteries on a hex table of 200 m a hex and 10 minutes a turn. Being built.

/// The rules version a game record names.
pub const RULES_VERSION: &str = "hex-miniatures/0.1";
