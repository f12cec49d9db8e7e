//! Dice notation (placeholder, being written).
