//! `lexq site build/search/export` and `lexq serve`: the command line over
//! the lexq-site library.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};
use lexq_site::build::{BuildOptions, build};
use lexq_site::serve::{AppState, Cors, Limits, ServeOptions, Server};
use lexq_site::{QueryBounds, Site, Stop};

use crate::exit::{FOUND, Failure, NOT_FOUND};
use crate::lexicon::Choice;
use crate::progress;

/// `lexq site ...` subcommands.
#[derive(Subcommand, Debug)]
pub enum SiteCommand {
    /// Build a site index: one document per lexicon word, with definitions, hooks, anagrams.
    Build(SiteBuildArgs),
    /// Search a site index with tantivy's query syntax (definition:"...", length:[3 TO 4], pos:/noun).
    Search(SiteSearchArgs),
    /// Export a site as a static website: HTML pages, sitemaps and index shards for a static server or CDN.
    Export(SiteExportArgs),
}

/// Arguments of `lexq site build`.
#[derive(Args, Debug)]
pub struct SiteBuildArgs {
    /// WordNet database directory (index.*, data.*, and *.exc for inflections).
    #[arg(long, value_name = "DIR")]
    pub wordnet: Option<PathBuf>,
    /// Definitions file: TSV (WORD<TAB>[pos<TAB>]definition) or JSON Lines; repeatable.
    #[arg(long, value_name = "FILE")]
    pub definitions: Vec<PathBuf>,
    /// The site directory to write (replaced as a whole at the end).
    #[arg(long, short = 'o', value_name = "DIR")]
    pub output: PathBuf,
    /// Fail on the first bad definition line instead of skipping it.
    #[arg(long)]
    pub strict: bool,
    /// Leave out the WordNet senses that are only the name of a particular person, place or thing (NANCY as the city); capitalised kinds (ALLIUM, a genus) stay.
    #[arg(long)]
    pub hide_names: bool,
    /// Leave out the WordNet senses marked offensive (its usage domains obscenity, ethnic slur and disparagement, and definitions that call themselves an offensive term); by default they are shown and flagged.
    #[arg(long)]
    pub hide_offensive: bool,
    /// A word frequency list (a word and a count a line: tab, comma or spaces between; header lines skipped), ranking completions and suggestions before WordNet's tag counts.
    #[arg(long, value_name = "FILE")]
    pub frequencies: Option<PathBuf>,
    /// Print the summary even when stderr is not a terminal.
    #[arg(long, short = 'v')]
    pub verbose: bool,
}

/// Arguments of `lexq site search`.
#[derive(Args, Debug)]
pub struct SiteSearchArgs {
    /// The site directory.
    #[arg(long, value_name = "DIR")]
    pub site: PathBuf,
    /// The query (quote it from the shell).
    pub query: String,
    /// Print at most N results (at least 1).
    #[arg(long, visible_alias = "top", value_name = "N", default_value_t = 20, value_parser = crate::flags::limit)]
    pub limit: usize,
    /// Skip the first N results.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub offset: usize,
    /// Print one JSON object: {"total", "hits": [{"word", "length", "points", "definition" (the sense that matched), "highlights" (byte ranges of the query's words in it), "score"}]}.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub bounds: BoundsArgs,
}

/// The bounds on a search query's cost (`lexq site search`, `lexq serve`):
/// a query over any of them is refused before it runs.
#[derive(Args, Debug)]
pub struct BoundsArgs {
    /// Most postings, phrase positions and documents a search query may read.
    #[arg(long, value_name = "N", default_value_t = QueryBounds::default().max_reads)]
    pub max_reads: u64,
    /// Most terms a search query may look up (a word without a field counts twice).
    #[arg(long, value_name = "N", default_value_t = QueryBounds::default().max_terms)]
    pub max_terms: usize,
    /// Most clauses (words, phrases, ranges, groups) in a search query.
    #[arg(long, value_name = "N", default_value_t = QueryBounds::default().max_clauses)]
    pub max_clauses: usize,
    /// Deepest nesting of a search query's groups.
    #[arg(long, value_name = "N", default_value_t = QueryBounds::default().max_depth)]
    pub max_depth: usize,
    /// Largest slop of a quoted phrase ("edge tool"~2).
    #[arg(long, value_name = "N", default_value_t = QueryBounds::default().max_slop)]
    pub max_slop: u32,
}

impl BoundsArgs {
    fn bounds(&self) -> QueryBounds {
        QueryBounds {
            max_reads: self.max_reads,
            max_terms: self.max_terms,
            max_clauses: self.max_clauses,
            max_depth: self.max_depth,
            max_slop: self.max_slop,
        }
    }
}

/// Arguments of `lexq site export`.
#[derive(Args, Debug)]
pub struct SiteExportArgs {
    /// The site directory.
    #[arg(long, value_name = "DIR")]
    pub site: PathBuf,
    /// The folder to write (replaced as a whole at the end).
    #[arg(long, short = 'o', value_name = "DIR")]
    pub output: PathBuf,
    /// The site's public address (https://example.org), before the paths of canonical links and the sitemap's addresses.
    #[arg(long, value_name = "URL")]
    pub base_url: String,
    /// Print the summary even when stderr is not a terminal.
    #[arg(long, short = 'v')]
    pub verbose: bool,
}

/// Arguments of `lexq serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// A site directory, for definitions and search (without it, every lexicon query is still served).
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
    /// A board layout or tile-set file, or a folder of them, that CGP lines posted to /api/v1/moves may name with bdn and ld (repeatable; without it, only the built-in names).
    #[arg(long, value_name = "PATH")]
    pub allow_file: Vec<PathBuf>,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Longest query argument, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 100)]
    pub max_input: usize,
    /// Most words or results in one response.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_limit: usize,
    /// Time limit of one query, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    pub timeout_ms: u64,
    /// Light queries running at once (default: twice the cores).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Heavy queries (costly lists, searches, moves with blanks) running at once, at a lower priority, and as many search estimates (default: half the cores, at least 1).
    #[arg(long, value_name = "N")]
    pub heavy_concurrency: Option<usize>,
    /// Heavy requests one client address may have in flight (a very heavy one counts 2), and searches being estimated; beyond it, 429.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub max_client_heavy: usize,
    /// Steps of the lexicon one /api/v1/find may walk; beyond it, 400 with the reason.
    #[arg(long, value_name = "N", default_value_t = 4_000_000)]
    pub max_find_steps: u64,
    /// Connections open at once; at the cap a new one takes the place of the one idle longest, or waits while every one is being answered (default: 1024, or what the open-file limit allows).
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Connections one client address may hold open; beyond it, 429.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub max_client_connections: usize,
    /// Time a client has to send a request head (also how long an idle connection stays open), to send a body, and to read an answer, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub client_timeout_ms: u64,
    /// A reverse proxy whose X-Forwarded-For names the client, for the per-client limits and the log; repeatable.
    #[arg(long, value_name = "ADDR")]
    pub trust_proxy: Vec<std::net::IpAddr>,
    /// Let pages of ORIGIN (https://example.org, or * for any) read the API from a browser; repeatable (default: none).
    #[arg(long, value_name = "ORIGIN")]
    pub cors: Vec<String>,
    /// How long caches may keep an answer before revalidating it (Cache-Control max-age), in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 600)]
    pub max_age: u64,
    /// On SIGTERM or Ctrl-C, how long open requests may take to finish, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    pub drain_ms: u64,
    /// No access log.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// The site's public address (https://example.org), before the paths of the HTML pages' canonical links and the sitemap's addresses (default: paths alone).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    #[command(flatten)]
    pub bounds: BoundsArgs,
}

/// A `--base-url`: `http://` or `https://` and a host, no spaces, quotes
/// or angle brackets (it is written into every page and the sitemap).
fn check_base_url(url: &str) -> Result<String, Failure> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let ok = rest.is_some_and(|r| {
        !r.is_empty()
            && !r.starts_with('/')
            && !r
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || "\"'<>`{}|\\^#?".contains(c))
    });
    if !ok {
        return Err(format!(
            "--base-url {url:?}: expected http:// or https:// and a host (https://example.org), with no spaces, quotes, query or fragment"
        )
        .into());
    }
    Ok(url.trim_end_matches('/').to_string())
}

/// Runs `lexq site ...`.
pub fn run_site(lexicon: Option<&Choice>, command: &SiteCommand) -> Result<u8, Failure> {
    match command {
        SiteCommand::Build(a) => {
            crate::interrupt::on_interrupt(lexq_site::remove_temp_dirs);
            let lex = crate::lexicon::open_checked(lexicon)?;
            let opts = BuildOptions {
                wordnet: a.wordnet.clone(),
                definitions: a.definitions.clone(),
                strict: a.strict,
                hide_names: a.hide_names,
                hide_offensive: a.hide_offensive,
                frequencies: a.frequencies.clone(),
            };
            let terminal = io::stderr().is_terminal();
            let mut bar = progress::Bar::new(terminal);
            let summary = build(
                &lex,
                crate::lexicon::path(lexicon),
                &opts,
                &a.output,
                &mut bar,
            );
            bar.finish();
            let summary = summary?;
            if !summary.bad_lines.is_empty() {
                eprintln!(
                    "lexq: skipped {} unusable definition line{}:",
                    summary.bad_lines.len(),
                    if summary.bad_lines.len() == 1 {
                        ""
                    } else {
                        "s"
                    }
                );
                for b in summary.bad_lines.iter().take(10) {
                    eprintln!("  {}:{}: {}", b.path.display(), b.line, b.reason);
                }
                if summary.bad_lines.len() > 10 {
                    eprintln!("  ... and {} more", summary.bad_lines.len() - 10);
                }
            }
            let unused = &summary.unused_words;
            if !unused.is_empty() {
                let plural = |n: usize, one: &str, many: &str| {
                    format!("{n} {}", if n == 1 { one } else { many })
                };
                let mut shown = unused
                    .iter()
                    .take(10)
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ");
                if unused.len() > 10 {
                    shown.push_str(&format!(", ... and {} more", unused.len() - 10));
                }
                eprintln!(
                    "lexq: {} of {} not in the lexicon went unused: {shown}",
                    plural(
                        summary.unused_definitions as usize,
                        "definition",
                        "definitions"
                    ),
                    plural(unused.len(), "word", "words"),
                );
            }
            if terminal || a.verbose {
                eprintln!("{}", summary.line(&a.output));
            }
            Ok(FOUND)
        }
        SiteCommand::Search(a) => {
            let site = Site::open(&a.site)?;
            check_named_lexicon(&site, lexicon)?;
            let hits = site.search_with(
                &a.query,
                a.limit,
                a.offset,
                &a.bounds.bounds(),
                &Stop::never(),
            )?;
            let mut out = io::BufWriter::new(crate::print::stdout());
            print_hits(&mut out, &hits, a.json)?;
            out.flush()?;
            if !a.json && io::stderr().is_terminal() {
                eprintln!("{} of {} results", hits.hits.len(), hits.total);
            }
            Ok(if hits.total > 0 { FOUND } else { NOT_FOUND })
        }
        SiteCommand::Export(a) => {
            crate::interrupt::on_interrupt(lexq_site::remove_temp_dirs);
            check_base_url(&a.base_url)?;
            let site = Site::open(&a.site)?;
            check_named_lexicon(&site, lexicon)?;
            let terminal = io::stderr().is_terminal();
            let mut bar = progress::Bar::new(terminal);
            let options = lexq_site::export::ExportOptions {
                base_url: check_base_url(&a.base_url)?,
            };
            let summary = lexq_site::export::export(&site, &a.output, &options, &mut bar);
            bar.finish();
            let summary = summary?;
            if terminal || a.verbose {
                eprintln!("{}", summary.line(&a.output));
            }
            Ok(FOUND)
        }
    }
}

/// Search results: `WORD<TAB>POINTS<TAB>DEFINITION` lines (`-` for no
/// definition), or the whole answer as one JSON object.
fn print_hits(
    out: &mut impl Write,
    hits: &lexq_site::search::Hits,
    as_json: bool,
) -> io::Result<()> {
    if as_json {
        serde_json::to_writer(&mut *out, hits).map_err(io::Error::other)?;
        return writeln!(out);
    }
    for h in &hits.hits {
        writeln!(
            out,
            "{}\t{}\t{}",
            h.word,
            h.points,
            h.definition.as_deref().unwrap_or("-")
        )?;
    }
    Ok(())
}

/// A search or export reads the site alone; a lexicon named all the same
/// (`-L`, `LEXQ_LEXICON`) must hold the site's word list, or the answers
/// would not be about the words the user asked about.
fn check_named_lexicon(site: &Site, lexicon: Option<&Choice>) -> Result<(), Failure> {
    if lexicon.is_some() {
        site.check_lexicon(&crate::lexicon::open(lexicon)?)?;
    }
    Ok(())
}

/// What `lexq serve` serves, opened and checked: the site (its
/// checksums), the lexicon (its structure) and that both hold the same
/// word list. At start, and again on each SIGHUP.
fn open_served(
    lexicon: Option<&Choice>,
    a: &ServeArgs,
) -> Result<(lexq::Lexicon, Option<Site>), Failure> {
    let site = match &a.site {
        Some(dir) => Some(Site::load(dir)?),
        None => None,
    };
    // --lexicon wins; else the site's own lexicon; else the embedded one.
    let lex = match (lexicon, &site) {
        (Some(_), _) | (None, None) => crate::lexicon::open_checked(lexicon)?,
        (None, Some(s)) => s.load_lexicon()?,
    };
    // Word searches and word pages must be about the same words.
    if let Some(site) = &site {
        site.check_lexicon(&lex)?;
    }
    Ok((lex, site))
}

/// Runs `lexq serve`.
pub fn run_serve(lexicon: Option<&Choice>, a: &ServeArgs) -> Result<u8, Failure> {
    let (lex, site) = open_served(lexicon, a)?;
    let mut limits = Limits {
        max_input: a.max_input,
        max_limit: a.max_limit,
        timeout: Duration::from_millis(a.timeout_ms),
        max_client_heavy: a.max_client_heavy,
        query: a.bounds.bounds(),
        max_find_steps: a.max_find_steps,
        ..Limits::default()
    };
    if let Some(n) = a.concurrency {
        limits.concurrency = n;
    }
    if let Some(n) = a.heavy_concurrency {
        limits.heavy_concurrency = n;
    }
    for (name, n) in [
        ("--concurrency", limits.concurrency),
        ("--heavy-concurrency", limits.heavy_concurrency),
        ("--max-client-heavy", limits.max_client_heavy),
        ("--max-client-connections", a.max_client_connections),
    ] {
        if n == 0 {
            return Err(format!("{name} 0: at least 1 is needed").into());
        }
    }
    let options = ServeOptions {
        client_timeout: Duration::from_millis(a.client_timeout_ms),
        max_connections: a.max_connections,
        max_client_connections: a.max_client_connections,
        trust_proxy: a.trust_proxy.clone(),
        cors: Cors::parse(&a.cors)?,
        max_age: Duration::from_secs(a.max_age),
        drain: Duration::from_millis(a.drain_ms),
    };
    // Resolved now: a path that does not exist is an error at start.
    let files =
        lexq::files::FilePolicy::allow(&a.allow_file).map_err(|e| format!("--allow-file {e}"))?;
    let allowed: Vec<String> = files
        .allowed()
        .unwrap_or_default()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let words = lex.word_count();
    let with_site = site.is_some();
    let mut state = AppState::new(lex, site, limits, !a.quiet)
        .with_options(options)
        .with_files(files);
    if let Some(url) = &a.base_url {
        state = state.with_base_url(&check_base_url(url)?);
    }
    // Caught before the server listens, so that no signal finds it
    // without its drain.
    let stops = crate::interrupt::stops();
    let server = Server::start(&a.addr, state)?;
    let say = |line: String| {
        let _ = writeln!(io::stderr().lock(), "{line}");
    };
    say(format!(
        "lexq: serving {words} words{} on http://{}/ (Ctrl-C stops)",
        if with_site { " with definitions" } else { "" },
        server.addr()
    ));
    if !allowed.is_empty() {
        say(format!(
            "lexq: CGP lines may name the files in: {}",
            allowed.join(", ")
        ));
    }
    let Some(stops) = stops else {
        // No signal can be caught: the server runs until killed.
        loop {
            std::thread::park();
        }
    };
    // SIGHUP: the files opened and checked again, served from the next
    // request on; if they fail a check, what was served goes on.
    let name = stops.first(|| match open_served(lexicon, a) {
        Ok((lex, site)) => {
            let words = lex.word_count();
            match server.reload(lex, site) {
                Ok(()) => say(format!("lexq: SIGHUP: reloaded: serving {words} words")),
                Err(e) => say(format!(
                    "lexq: SIGHUP: reload refused: {e}; still serving the previous files"
                )),
            }
        }
        Err(e) => say(format!(
            "lexq: SIGHUP: reload refused: {e}; still serving the previous files"
        )),
    });
    say(format!(
        "lexq: {name}: finishing open requests (at most {} ms)",
        a.drain_ms
    ));
    server.stop()?;
    Ok(FOUND)
}
