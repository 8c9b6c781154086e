//! Prints the top moves of a CGP position: `cargo run --example top -- "<CGP>" [N]`.
use lexq::{Lexicon, game::Count, game::Generator, game::Position, game::TopN};

fn main() -> Result<(), lexq::game::Error> {
    let args: Vec<String> = std::env::args().collect();
    let lex = Lexicon::embedded();
    let pos = Position::from_cgp(&lex, &args[1])?;
    let n = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let mut generator = Generator::new();
    let mut top = TopN::new(n);
    generator.generate(&pos.board, &pos.rack(), &mut top);
    let mut count = Count(0);
    generator.generate(&pos.board, &pos.rack(), &mut count);
    for mv in top.into_sorted() {
        println!(
            "{} {} {}",
            mv.notation(lex.alphabet()),
            mv.score(),
            mv.leave(&pos.rack()).to_string(lex.alphabet())
        );
    }
    println!("{} moves", count.0);
    Ok(())
}
