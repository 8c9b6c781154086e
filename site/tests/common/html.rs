//! Reading the HTML pages tests fetch: entities, well-formedness, links.

/// `&amp;` and the other entities a page writes, read back.
pub fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Checks that `html` is one document with a non-empty title, each
/// element closed in order (void elements aside; script and style read
/// as text), attributes quoted.
pub fn well_formed(path: &str, html: &str) {
    const VOID: [&str; 6] = ["meta", "link", "input", "br", "img", "hr"];
    assert!(html.starts_with("<!doctype html>"), "{path}");
    let title = html
        .split_once("<title>")
        .and_then(|(_, r)| r.split_once("</title>"))
        .map(|(t, _)| t.trim())
        .unwrap_or_default();
    assert!(!title.is_empty(), "{path}: no title");
    let mut stack: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        if rest.starts_with('!') {
            rest = &rest[rest.find('>').unwrap() + 1..];
            continue;
        }
        let end = rest
            .find('>')
            .unwrap_or_else(|| panic!("{path}: a tag not closed"));
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack
                .pop()
                .unwrap_or_else(|| panic!("{path}: </{name}> closes nothing"));
            assert_eq!(open, name, "{path}: <{open}> closed by </{name}>");
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        assert!(!name.is_empty(), "{path}: a bad tag <{tag}>");
        assert_eq!(tag.matches('"').count() % 2, 0, "{path}: <{tag}>");
        if VOID.contains(&name.as_str()) {
            continue;
        }
        if name == "script" || name == "style" {
            let close = format!("</{name}>");
            rest = &rest[rest.find(&close).unwrap() + close.len()..];
            continue;
        }
        stack.push(name);
    }
    assert!(stack.is_empty(), "{path}: left open: {stack:?}");
}

/// The `href`s of a page's markup (not its script), unescaped.
pub fn links(html: &str) -> Vec<String> {
    let mut markup = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("<script") {
        markup.push_str(&rest[..i]);
        rest = rest[i..].split_once("</script>").map_or("", |(_, r)| r);
    }
    markup.push_str(rest);
    markup
        .split("href=\"")
        .skip(1)
        .map(|r| unescape(&r[..r.find('"').unwrap()]))
        .collect()
}

/// The edit distance of `a` and `b` (an adjacent swap counts 1).
pub fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let sub = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + sub);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}
