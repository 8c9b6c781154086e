//! The chance that the player to move wins, from the spread and the tiles
//! in the bag, derived from lexq's own self-play.
//!
//! `TABLE` was printed by `cargo run --release --example win_table 2000`
//! (examples/win_table.rs): over 2,000 games of the score bot against
//! itself, for each range of bag sizes, the mean and the standard
//! deviation of how the mover's spread moved from that turn to the end of
//! the game. A spread `s` then wins with the chance that a normal draw of
//! mean `s + mean` and that deviation is above 0 (half a win at 0).

/// (largest bag of the range, mean, standard deviation), in points.
const TABLE: &[(usize, f64, f64)] = &[
    (0, 5.0, 10.0),
    (3, 10.0, 20.0),
    (7, 12.0, 30.0),
    (14, 14.0, 40.0),
    (21, 15.0, 50.0),
    (28, 15.0, 55.0),
    (35, 15.0, 60.0),
    (42, 15.0, 65.0),
    (49, 15.0, 70.0),
    (56, 15.0, 75.0),
    (63, 15.0, 80.0),
    (70, 15.0, 85.0),
    (100, 15.0, 90.0),
];

/// The chance (0 to 1) that the player to move wins with `spread` points
/// ahead (negative: behind) and `bag` tiles in the bag, the game not
/// over.
///
/// ```
/// use lexq::game::sim::win_chance;
/// assert!(win_chance(0.0, 50) > 0.5); // moving next is worth something
/// assert!(win_chance(100.0, 50) > win_chance(10.0, 50));
/// assert!(win_chance(-30.0, 0) < 0.01); // no time left to catch up
/// ```
pub fn win_chance(spread: f64, bag: usize) -> f64 {
    let &(_, mean, sd) = TABLE
        .iter()
        .find(|r| bag <= r.0)
        .unwrap_or(&TABLE[TABLE.len() - 1]);
    let x = spread + mean;
    if sd <= 0.0 {
        return if x > 0.0 {
            1.0
        } else if x < 0.0 {
            0.0
        } else {
            0.5
        };
    }
    normal_cdf(x / sd)
}

/// The standard normal distribution's chance of a draw below `x`
/// (Abramowitz and Stegun 7.1.26 for erf, error below 1.5e-7).
fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}
