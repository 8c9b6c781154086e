//! A reused move generator allocates nothing per position, the rack and
//! anchored word walks nothing per step, and a game's play and undo and a
//! leave table's lookup nothing once warm: counted by a global
//! allocator that tallies the allocations of each thread (the test
//! harness's own thread allocates as it reports other tests, at any time).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use lexq::game::leaves::Leaves;
use lexq::{
    Lexicon, TileSet, game::All, game::Best, game::Count, game::Game, game::Generator, game::Move,
    game::Position, game::Rack, game::TopN,
};

struct Counting;

thread_local! {
    /// Allocations made by this thread (a const-initialised cell: reading
    /// it allocates nothing).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // During a thread's teardown the cell may be gone: not counted.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is System's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is System's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is System's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn a_reused_generator_allocates_nothing_per_position() {
    let lex = Lexicon::embedded();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/positions.cgp"
    ))
    .unwrap();
    let positions: Vec<Position<'_>> = text
        .lines()
        .take(80)
        .map(|l| Position::from_cgp(&lex, l).unwrap())
        .collect();
    let racks: Vec<_> = positions.iter().map(Position::rack).collect();
    // By score, and by equity with a leave table, exchanges listed too.
    let leaves = lexq::game::leaves::Leaves::open(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/leaves/small.csv").as_ref(),
        lex.alphabet(),
    )
    .unwrap();
    let mut generators = [
        Generator::new(),
        Generator::new()
            .exchanges(true)
            .leaves(Some(std::sync::Arc::new(leaves))),
    ];
    let mut top = TopN::new(5);
    let run = |generators: &mut [Generator; 2], top: &mut TopN| {
        let mut moves = 0;
        for generator in generators.iter_mut() {
            for (p, rack) in positions.iter().zip(&racks) {
                let mut count = Count(0);
                generator.generate(&p.board, rack, &mut count);
                let mut best = Best::default();
                generator.generate(&p.board, rack, &mut best);
                top.clear();
                generator.generate(&p.board, rack, top);
                moves += count.0 + usize::from(best.best.is_some());
            }
        }
        moves
    };
    // The first pass sizes the generator's anchor list. (The count is
    // global: the least of three passes leaves out what the test
    // harness's other threads allocate meanwhile, such as its report of
    // the other test.)
    let first = run(&mut generators, &mut top);
    let mut second = 0;
    let during = (0..3)
        .map(|_| {
            let before = allocations();
            second = run(&mut generators, &mut top);
            allocations() - before
        })
        .min()
        .unwrap_or(usize::MAX);
    assert_eq!(first, second);
    assert!(second > 10_000, "the positions have moves ({second})");
    assert_eq!(during, 0, "allocations while generating {second} moves");
}

#[test]
fn rack_walks_allocate_only_their_results() {
    let lex = Lexicon::embedded();
    // The result list grows as words are found; the walk itself must not
    // allocate per step: a rack with no word allocates a fixed number of
    // times however long the walk.
    // The least of five runs: the count is global, and the test harness's
    // other threads may allocate meanwhile (its report of the other test).
    let count = |rack: &str| {
        (0..5)
            .map(|_| {
                let before = allocations();
                let words = lex.anagram(rack).unwrap();
                assert!(words.is_empty(), "{rack}");
                allocations() - before
            })
            .min()
            .unwrap_or(usize::MAX)
    };
    let short = count("qz");
    let long = count("eiouuvw?");
    assert_eq!(short, long, "allocations of an empty anagram search");
}

#[test]
fn play_and_undo_allocate_nothing() {
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet()).unwrap();
    let mut game = Game::new(&lex, lexq::game::Layout::standard(), tiles, 2, 9).unwrap();
    let mut generator = Generator::new();
    let mut tried = 0;
    for _ in 0..12 {
        let mut all = All::default();
        generator.generate(game.board(), game.rack(game.to_move()), &mut all);
        let moves = all.into_sorted();
        // Warm: the record has room after one play and undo.
        game.apply(&moves[0]).unwrap();
        game.undo();
        let before = allocations();
        for m in moves.iter().take(200) {
            game.apply(m).unwrap();
            game.undo();
            tried += 1;
        }
        game.apply(&Move::pass()).unwrap();
        game.undo();
        assert_eq!(allocations(), before, "allocations in play and undo");
        game.apply(&moves[0]).unwrap();
    }
    assert!(tried > 500);
}

#[test]
fn leave_lookup_allocates_nothing() {
    let en = lexq::Alphabet::english();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/leaves/small.csv"
    ))
    .unwrap();
    let table = Leaves::from_csv(&text, &en).unwrap();
    let racks: Vec<Rack> = ["?", "QU", "EE", "ST", "AEI", "Z", ""]
        .iter()
        .map(|s| Rack::parse(s, &en).unwrap())
        .collect();
    let before = allocations();
    let mut sum = 0i64;
    for _ in 0..100 {
        for r in &racks {
            sum += i64::from(table.value(r));
        }
    }
    assert_eq!(allocations(), before);
    assert_ne!(sum, 0);
}
