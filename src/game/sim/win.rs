//! The chance that the player to move wins, from the spread and the tiles
//! in the bag, derived from lexq's own self-play.
//!
//! `TABLE` was printed by `cargo run --release --example win_table 1000`
//! (examples/win_table.rs; the figures do not depend on the build): over
//! 1,000 games of the score bot against itself (seeds 1 to 1,000, 25,055
//! turns), for each range of bag sizes, the mean and the standard
//! deviation of how the mover's spread moved from that turn to the end of
//! the game. A spread `s` then wins with the chance that a normal draw of
//! mean `s + mean` and that deviation is above 0.

/// (largest bag of the range, mean, standard deviation), in points.
const TABLE: &[(usize, f64, f64)] = &[
    (0, 11.4, 21.1),
    (3, 13.4, 33.0),
    (7, 17.1, 38.4),
    (14, 15.7, 43.9),
    (21, 16.3, 50.9),
    (28, 17.8, 57.4),
    (35, 16.1, 62.2),
    (42, 18.1, 66.2),
    (49, 18.1, 73.5),
    (56, 16.4, 78.1),
    (63, 19.1, 82.8),
    (70, 19.6, 87.6),
    (100, 16.7, 92.9),
];

/// The chance (0 to 1) that the player to move wins with `spread` points
/// ahead (negative: behind) and `bag` tiles in the bag, the game not
/// over.
///
/// ```
/// use lexq::game::sim::win_chance;
/// assert!(win_chance(0.0, 50) > 0.5); // moving next is worth something
/// assert!(win_chance(100.0, 50) > win_chance(10.0, 50));
/// assert!(win_chance(-30.0, 0) < 0.5); // behind, and no tiles left to draw
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
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}
