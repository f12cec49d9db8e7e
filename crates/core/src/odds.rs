//! Exact odds (placeholder, being written).
