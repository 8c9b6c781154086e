//! A game's play and undo, and a leave table's lookup, allocate nothing
//! once warm: counted by a global allocator that tallies the allocations
//! of each thread (the test harness's own thread allocates as it reports
//! other tests, at any time).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use lexq::leaves::Leaves;
use lexq::{All, Game, Generator, Lexicon, Move, Rack, TileSet};

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
fn play_and_undo_allocate_nothing() {
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet()).unwrap();
    let mut game = Game::new(&lex, lexq::Layout::standard(), tiles, 2, 9).unwrap();
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
