//! The rule sets of RULES.md §6, as one enum with a method per property.

use super::board::Suicide;
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Stones on the board plus surrounded empty points.
    Area,
    /// Surrounded empty points plus prisoners; seki points count for nobody.
    Territory,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone is forbidden.
    Simple,
    /// No move may recreate an earlier stone arrangement.
    PositionalSuperko,
    /// No move may recreate an earlier arrangement with the same player to move.
    SituationalSuperko,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ruleset {
    #[default]
    Chinese,
    Aga,
    NewZealand,
    TrompTaylor,
    Japanese,
    Korean,
}

impl Ruleset {
    pub const ALL: [Ruleset; 6] = [
        Ruleset::Chinese,
        Ruleset::Aga,
        Ruleset::NewZealand,
        Ruleset::TrompTaylor,
        Ruleset::Japanese,
        Ruleset::Korean,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Ruleset::Chinese => "chinese",
            Ruleset::Aga => "aga",
            Ruleset::NewZealand => "new_zealand",
            Ruleset::TrompTaylor => "tromp-taylor",
            Ruleset::Japanese => "japanese",
            Ruleset::Korean => "korean",
        }
    }

    pub fn scoring(self) -> Scoring {
        match self {
            Ruleset::Japanese | Ruleset::Korean => Scoring::Territory,
            _ => Scoring::Area,
        }
    }

    pub fn ko_rule(self) -> KoRule {
        match self {
            Ruleset::Chinese | Ruleset::TrompTaylor => KoRule::PositionalSuperko,
            Ruleset::Aga | Ruleset::NewZealand => KoRule::SituationalSuperko,
            Ruleset::Japanese | Ruleset::Korean => KoRule::Simple,
        }
    }

    pub fn suicide(self) -> Suicide {
        match self {
            Ruleset::NewZealand | Ruleset::TrompTaylor => Suicide::MultiStoneAllowed,
            _ => Suicide::Forbidden,
        }
    }

    /// Whether a game that repeats a position ends without result (instead of the
    /// repetition being illegal).
    pub fn cycle_is_no_result(self) -> bool {
        self.ko_rule() == KoRule::Simple
    }

    /// Komi when no `komi` command has set one.
    pub fn default_komi(self, handicap_stones: u32) -> f64 {
        if handicap_stones > 0 {
            return 0.5;
        }
        match self {
            Ruleset::NewZealand => 7.0,
            Ruleset::Japanese | Ruleset::Korean => 6.5,
            _ => 7.5,
        }
    }

    /// Points White receives for Black's handicap stones.
    pub fn handicap_bonus(self, handicap_stones: u32) -> u32 {
        match self {
            Ruleset::Chinese => handicap_stones,
            Ruleset::Aga => handicap_stones.saturating_sub(1),
            _ => 0,
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule set name that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRuleset(pub String);

impl fmt::Display for UnknownRuleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule set {:?}", self.0)
    }
}

impl std::error::Error for UnknownRuleset {}

impl FromStr for Ruleset {
    type Err = UnknownRuleset;

    /// Case-insensitive; `-` and `_` are interchangeable (`tromp_taylor`, `new-zealand`).
    fn from_str(s: &str) -> Result<Ruleset, UnknownRuleset> {
        let wanted = s.to_ascii_lowercase().replace('_', "-");
        Ruleset::ALL
            .into_iter()
            .find(|r| r.name().replace('_', "-") == wanted)
            .ok_or_else(|| UnknownRuleset(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_parses_back_from_its_name() {
        for r in Ruleset::ALL {
            assert_eq!(r.name().parse::<Ruleset>(), Ok(r));
        }
        assert_eq!("Tromp_Taylor".parse::<Ruleset>(), Ok(Ruleset::TrompTaylor));
        assert!("ing".parse::<Ruleset>().is_err());
    }

    #[test]
    fn the_table_of_rules_md_section_six_holds() {
        use KoRule::*;
        use Scoring::*;
        let table = [
            (Ruleset::Chinese, Area, PositionalSuperko, false, 7.5, 3),
            (Ruleset::Aga, Area, SituationalSuperko, false, 7.5, 2),
            (Ruleset::NewZealand, Area, SituationalSuperko, true, 7.0, 0),
            (Ruleset::TrompTaylor, Area, PositionalSuperko, true, 7.5, 0),
            (Ruleset::Japanese, Territory, Simple, false, 6.5, 0),
            (Ruleset::Korean, Territory, Simple, false, 6.5, 0),
        ];
        for (r, scoring, ko, suicide, komi, bonus_for_three) in table {
            assert_eq!(r.scoring(), scoring, "{r}");
            assert_eq!(r.ko_rule(), ko, "{r}");
            assert_eq!(r.suicide() == Suicide::MultiStoneAllowed, suicide, "{r}");
            assert_eq!(r.default_komi(0), komi, "{r}");
            assert_eq!(r.default_komi(2), 0.5, "{r}");
            assert_eq!(r.handicap_bonus(3), bonus_for_three, "{r}");
        }
    }
}
