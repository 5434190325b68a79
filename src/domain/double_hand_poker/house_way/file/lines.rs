//! A house-way file read line by line: the format line first, then the
//! header's `name`, `title` and `source`, then each rule's `when`, `play`
//! and `say`, gathered into a [`HouseWayFile`]; the first error found is
//! returned with its line.

use super::{
    Condition, FILE_BYTES_MAX, FORMAT_LINES, FileError, HandClass, HouseWayFile, Play, PlayContext,
    RULES_MAX, Rule, error, play_of, text_of, when_of,
};

impl HouseWayFile {
    /// Parses a house-way file; the first error found, with its line.
    pub fn parse(text: &str) -> Result<HouseWayFile, FileError> {
        let (version, lines) = content_lines(text)?;
        let mut reader = Reader::new(version);
        for (n, line) in lines {
            reader.line(n, line)?;
            if reader.file.rules.len() > RULES_MAX {
                return Err(error(n, format!("more than {RULES_MAX} rules"), ""));
            }
        }
        reader.finish()
    }
}

/// The format version the file starts with, and the lines that say
/// something after it (comments after `#` and blank lines left out),
/// numbered from 1.
fn content_lines(text: &str) -> Result<(u8, impl Iterator<Item = (usize, &str)>), FileError> {
    if text.len() > FILE_BYTES_MAX {
        return Err(error(
            0,
            format!("the file is larger than {FILE_BYTES_MAX} bytes"),
            "",
        ));
    }
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty());
    match lines.next() {
        Some((n, first)) => match FORMAT_LINES.iter().position(|&f| f == first) {
            Some(i) => Ok((i as u8 + 1, lines)),
            None => Err(error(
                n,
                format!(
                    "expected \"{}\" or \"{}\" first",
                    FORMAT_LINES[0], FORMAT_LINES[1]
                ),
                first,
            )),
        },
        None => Err(error(0, "the file is empty", "")),
    }
}

/// The file read so far, and the rule still being read (its `when` seen,
/// its `play` and `say` perhaps not yet).
struct Reader {
    file: HouseWayFile,
    open: Option<PartialRule>,
}

impl Reader {
    fn new(version: u8) -> Reader {
        Reader {
            file: HouseWayFile {
                version,
                name: String::new(),
                title: String::new(),
                sources: Vec::new(),
                rules: Vec::new(),
            },
            open: None,
        }
    }
}

impl Reader {
    /// Reads line `n`: its keyword, then the rest of it.
    fn line(&mut self, n: usize, line: &str) -> Result<(), FileError> {
        let (keyword, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match keyword {
            "name" | "title" | "source" if !self.file.rules.is_empty() || self.open.is_some() => {
                Err(error(
                    n,
                    format!("\"{keyword}\" belongs before the first rule"),
                    line,
                ))
            }
            "name" => self.name(n, rest),
            "title" => {
                self.file.title = text_of(n, rest)?;
                Ok(())
            }
            "source" => {
                self.file.sources.push(text_of(n, rest)?);
                Ok(())
            }
            "when" => self.when(n, rest),
            "play" | "say" => self.play_or_say(n, keyword, rest, line),
            _ => Err(error(
                n,
                "expected name, title, source, when, play or say",
                line,
            )),
        }
    }

    fn name(&mut self, n: usize, rest: &str) -> Result<(), FileError> {
        let valid = !rest.is_empty()
            && rest.len() <= 40
            && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        if !valid {
            return Err(error(n, "a name is 1 to 40 letters, digits or '-'", rest));
        }
        self.file.name = rest.to_ascii_lowercase();
        Ok(())
    }

    /// A `when` ends the rule being read and opens the next.
    fn when(&mut self, n: usize, rest: &str) -> Result<(), FileError> {
        if let Some(p) = self.open.take() {
            self.file.rules.push(p.finish()?);
        }
        let (hand, conditions) = when_of(n, rest)?;
        self.open = Some(PartialRule {
            line: n,
            hand,
            conditions,
            play: None,
            words: None,
        });
        Ok(())
    }

    /// A `play` or a `say` of the rule being read: one of each.
    fn play_or_say(
        &mut self,
        n: usize,
        keyword: &str,
        rest: &str,
        line: &str,
    ) -> Result<(), FileError> {
        let Some(p) = self.open.as_mut() else {
            return Err(error(
                n,
                format!("\"{keyword}\" must follow a \"when\""),
                line,
            ));
        };
        if keyword == "play" {
            if p.play.is_some() {
                return Err(error(n, "a rule has one \"play\"", line));
            }
            let at = PlayContext {
                line: n,
                version: self.file.version,
                hand: p.hand,
            };
            p.play = Some(play_of(at, rest)?);
        } else {
            if p.words.is_some() {
                return Err(error(n, "a rule has one \"say\"", line));
            }
            p.words = Some(text_of(n, rest)?);
        }
        Ok(())
    }

    /// The file, its last rule finished; refused without a name or rules.
    fn finish(mut self) -> Result<HouseWayFile, FileError> {
        if let Some(p) = self.open.take() {
            self.file.rules.push(p.finish()?);
        }
        if self.file.name.is_empty() {
            return Err(error(
                0,
                "the file names no house way (a \"name\" line)",
                "",
            ));
        }
        if self.file.rules.is_empty() {
            return Err(error(0, "the file has no rules (\"when\" lines)", ""));
        }
        Ok(self.file)
    }
}

struct PartialRule {
    line: usize,
    hand: HandClass,
    conditions: Vec<Condition>,
    play: Option<Play>,
    words: Option<String>,
}

impl PartialRule {
    fn finish(self) -> Result<Rule, FileError> {
        let play = self
            .play
            .ok_or_else(|| error(self.line, "this rule has no \"play\" line", ""))?;
        let words = self
            .words
            .ok_or_else(|| error(self.line, "this rule has no \"say\" line", ""))?;
        Ok(Rule {
            line: self.line,
            hand: self.hand,
            conditions: self.conditions,
            play,
            words,
        })
    }
}
