//! What the board-game commands share: the lexicon of each position,
//! leave tables read once an alphabet, the setup of self-play, a bar
//! counting games.
//!
//! The lexicon of a position is `--lexicon` when given, else the one its
//! CGP `lex` opcode names (ENABLE, or a lexicon file path), else ENABLE.

use std::collections::HashMap;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lexq::files::FilePolicy;
use lexq::game::leaves::Leaves;
use lexq::game::{Layout, Position, lexicon_name};
use lexq::{Alphabet, Lexicon, TileSet};

use crate::exit::Failure;
use crate::lexicon::Choice;

/// Opens lexicons by name, once each.
pub struct Lexicons {
    forced: Option<Lexicon>,
    named: HashMap<String, Lexicon>,
    embedded: Option<Lexicon>,
}

impl Lexicons {
    pub fn new(forced: Option<&Choice>) -> Result<Lexicons, Failure> {
        Ok(Lexicons {
            forced: match forced {
                Some(c) => Some(crate::lexicon::open(Some(c))?),
                None => None,
            },
            named: HashMap::new(),
            embedded: None,
        })
    }

    /// The lexicon for a CGP line: the one its `lex` names (the built-in
    /// ENABLE or any lexicon file: the user of the command writes the
    /// lines), else ENABLE.
    pub fn for_cgp(&mut self, line: &str) -> Result<&Lexicon, Failure> {
        if let Some(l) = &self.forced {
            return Ok(l);
        }
        // A built-in name is the built-in lexicon, unless a file of that
        // name exists (as `-L` takes it).
        let name = lexicon_name(line).filter(|n| !crate::lexicon::names_builtin(n));
        match name {
            None => Ok(self.embedded.get_or_insert_with(Lexicon::embedded)),
            Some(name) => {
                if !self.named.contains_key(&name) {
                    let lex = FilePolicy::any_file()
                        .lexicon(&name)
                        .map_err(|e| format!("CGP lex: {e} (or give one with --lexicon)"))?;
                    self.named.insert(name.clone(), lex);
                }
                Ok(&self.named[&name])
            }
        }
    }
}

/// A leave table file, read once for each alphabet it is used with (the
/// CSV form spells leaves in the alphabet's letters).
pub struct LeaveFile {
    path: PathBuf,
    read: HashMap<String, Arc<Leaves>>,
}

impl LeaveFile {
    pub fn new(path: &Path) -> LeaveFile {
        LeaveFile {
            path: path.to_path_buf(),
            read: HashMap::new(),
        }
    }

    /// The table for positions of `alphabet`.
    pub fn for_alphabet(&mut self, alphabet: &Alphabet) -> Result<Arc<Leaves>, Failure> {
        if let Some(t) = self.read.get(alphabet.name()) {
            return Ok(t.clone());
        }
        let table = Arc::new(Leaves::open(&self.path, alphabet)?);
        self.read.insert(alphabet.name().to_string(), table.clone());
        Ok(table)
    }
}

/// Reads a CGP line; its `bdn` and `ld` may name any file (the user of
/// the command writes the lines, and reads any error about them).
pub fn position<'a>(lex: &'a Lexicon, line: &str) -> Result<Position<'a>, lexq::game::Error> {
    Position::from_cgp_with(lex, line, &FilePolicy::any_file())
}

/// What a self-play command plays on: the lexicon, board, tiles and the
/// opcodes naming them in CGP and GCG.
pub struct Setup {
    pub lex: Lexicon,
    pub layout: Layout,
    pub tiles: TileSet,
    pub ops: String,
}

pub fn setup(
    lexicon: Option<&Choice>,
    layout_name: &str,
    tiles: Option<&str>,
) -> Result<Setup, Failure> {
    let lex = crate::lexicon::open(lexicon)?;
    let layout = Layout::named(layout_name)?;
    // The friends board comes with the friends tile set unless --tiles
    // says otherwise.
    let friends = layout_name.eq_ignore_ascii_case("friends");
    let tiles_name = match tiles {
        Some(t) => Some(t.to_string()),
        None if friends && lex.alphabet().name() == "english" => Some("friends".to_string()),
        None => None,
    };
    let tiles = match &tiles_name {
        Some(t) => TileSet::named(t, lex.alphabet())?,
        None => TileSet::default_for(lex.alphabet(), layout.size())?,
    };
    let name = lexicon.map_or_else(|| "ENABLE".to_string(), Choice::cgp_name);
    let mut ops = format!("lex {name};");
    if layout_name != "standard" {
        ops.push_str(&format!(" bdn {layout_name};"));
    }
    if let Some(t) = &tiles_name {
        ops.push_str(&format!(" ld {t};"));
    }
    Ok(Setup {
        lex,
        layout,
        tiles,
        ops,
    })
}

/// A bar counting games on stderr when it is a terminal, else nothing.
pub fn games_bar(games: u64) -> Option<ProgressBar> {
    io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} games [{bar:40}] {pos}/{len} {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    })
}
