//! Test helpers shared by the integration tests.
#![allow(dead_code)]

pub mod positions;
pub mod reference;
