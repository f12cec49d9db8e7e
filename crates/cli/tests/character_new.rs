//! `tabula <system> character new` as a person who has never seen the TOML
//! format meets it (issue "Characters and campaigns", acceptance): for each
//! of the five systems a scripted player reads only the prompts (the question
//! line with its range or options) and answers them; the sheet written must
//! pass `character validate`. The player answers as a newcomer would: the most
//! a number allows (spending the budget), the first option, the next one when
//! an answer is refused.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const SYSTEMS: [&str; 5] = ["sour-grapes", "scratch", "tiers", "bastards", "sapio"];

/// The most answers one character takes before the test gives up.
const MAX_ANSWERS: usize = 400;

fn tabula() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
}

/// What the prompt asks, read from its question line.
#[derive(Debug)]
enum Asked {
    Int { max: i64 },
    Choice { options: usize },
    Multi { min: usize, options: usize },
    Text,
}

/// The kind of question `line` is, from the range in parentheses the
/// prompt writes after the label, if it is a question line.
fn kind_of(line: &str, options: usize) -> Option<Asked> {
    let (_, range) = line.rsplit_once(" (")?;
    if range.starts_with("up to ") && range.contains(" characters)") {
        return Some(Asked::Text);
    }
    if range.starts_with("a number or a name)") {
        return Some(Asked::Choice { options });
    }
    if let Some(rest) = range.strip_prefix("pick ") {
        let min = rest.split(' ').next()?.parse().ok()?;
        return Some(Asked::Multi { min, options });
    }
    let (lo, hi) = range.split_once(" to ")?;
    lo.trim().parse::<i64>().ok()?;
    let max = hi.split(')').next()?.trim().parse().ok()?;
    Some(Asked::Int { max })
}

/// Read the question of the prompt that ends `screen` (the text since the
/// last answer): the last question line, and the options listed after it.
fn read_question(screen: &str) -> (String, Asked) {
    let lines: Vec<&str> = screen.lines().collect();
    let options = lines
        .iter()
        .filter(|l| {
            l.starts_with("  ")
                && l.trim_start()
                    .split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
        })
        .count();
    for line in lines.iter().rev() {
        // The range sits before any "[now: ...]" or "[optional ...]".
        let head = line.split(" [").next().unwrap_or(line);
        if let Some(asked) = kind_of(head, options) {
            return (line.to_string(), asked);
        }
    }
    (String::new(), Asked::Text)
}

/// The newcomer's answer; `tries` counts refusals of the same question.
fn answer(asked: &Asked, tries: usize, n: usize) -> String {
    match asked {
        Asked::Int { max } => (max - tries as i64).to_string(),
        Asked::Choice { options } => (1 + (tries % (*options).max(1))).to_string(),
        Asked::Multi { min, options } => {
            let want = (*min).max(1).min(*options);
            (0..want)
                .map(|i| (1 + (i + tries) % (*options).max(1)).to_string())
                .collect::<Vec<_>>()
                .join(",")
        }
        Asked::Text => format!("Newcomer {n}"),
    }
}

fn make_character(system: &str, dir: &std::path::Path) -> (std::path::PathBuf, Vec<String>) {
    let out = dir.join(format!("{system}.toml"));
    let mut child = tabula()
        .args([system, "character", "new", "--out"])
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stderr = child.stderr.take().expect("stderr");
    // Read the prompts on a thread; each read chunk goes to the test.
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        loop {
            match stderr.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx
                        .send(String::from_utf8_lossy(&buf[..n]).into_owned())
                        .is_err()
                    {
                        break;
                    }
                }
            }
        }
    });
    let mut screen = String::new();
    let mut transcript = Vec::new();
    let mut last_question = String::new();
    let mut tries = 0;
    for n in 0..MAX_ANSWERS {
        // Wait for the next prompt ("> " at the end), bounded.
        loop {
            if screen.ends_with("> ") {
                break;
            }
            match rx.recv_timeout(Duration::from_secs(20)) {
                Ok(chunk) => screen.push_str(&chunk),
                Err(_) => {
                    let status = child.wait().expect("wait");
                    let mut rest = String::new();
                    child.stdout.take().map(|mut o| o.read_to_string(&mut rest));
                    assert!(
                        status.success(),
                        "{system}: tabula failed\n{}\n{screen}",
                        transcript.join("\n")
                    );
                    return (out, transcript);
                }
            }
        }
        let (question, asked) = read_question(&screen);
        if screen.contains("Refused:")
            || screen.contains("needs an answer")
            || question == last_question
        {
            tries += 1;
        } else {
            tries = 0;
        }
        // A newcomer leaves optional text (another Item, notes) empty.
        let optional = question.contains("[optional") || question.contains("enter keeps it");
        let reply = match asked {
            Asked::Text if optional && tries == 0 => String::new(),
            Asked::Int { max } if optional && max <= 0 && tries == 0 => String::new(),
            _ => answer(&asked, tries, n),
        };
        transcript.push(format!("{}\n  -> {reply}", screen.trim_end()));
        last_question = question;
        screen.clear();
        writeln!(stdin, "{reply}").expect("write answer");
    }
    let _ = child.kill();
    let tail = transcript.len().saturating_sub(12);
    transcript.insert(
        0,
        format!("more than {MAX_ANSWERS} answers; the last ones:"),
    );
    transcript.drain(1..tail.max(1));
    (out, transcript)
}

#[test]
fn a_newcomer_makes_a_legal_character_in_every_system_by_following_the_prompts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut failures = Vec::new();
    for system in SYSTEMS {
        let (file, transcript) = make_character(system, dir.path());
        if !file.exists() {
            failures.push(format!(
                "{system}: no sheet written\n{}",
                transcript.join("\n")
            ));
            continue;
        }
        let v = tabula()
            .args([system, "character", "validate"])
            .arg(&file)
            .output()
            .expect("validate runs");
        if !v.status.success() {
            failures.push(format!(
                "{system}: the sheet does not validate: {}\n{}\n{}",
                String::from_utf8_lossy(&v.stderr),
                std::fs::read_to_string(&file).unwrap_or_default(),
                transcript.join("\n")
            ));
            continue;
        }
        // The prompts walked the book's steps: at least two of them.
        let steps = transcript.iter().filter(|t| t.contains("== ")).count();
        if steps < 2 {
            failures.push(format!("{system}: the prompts showed {steps} steps"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn answers_that_end_early_write_nothing_and_say_where() {
    let dir = tempfile::tempdir().expect("temp dir");
    for system in SYSTEMS {
        let out = dir.path().join(format!("{system}-short.toml"));
        let mut child = tabula()
            .args([system, "character", "new", "--out"])
            .arg(&out)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tabula runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"")
            .expect("close");
        let o = child.wait_with_output().expect("wait");
        assert_eq!(o.status.code(), Some(2), "{system}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("the answers ended at"), "{system}: {err}");
        assert!(!out.exists(), "{system}: a sheet was written");
    }
}

#[test]
fn a_refused_answer_is_asked_again_with_the_rule() {
    // Scripted answers for one question: an answer that is not a number is
    // refused and asked again; the input then ends.
    let o = tabula()
        .args(["tiers", "character", "new"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().expect("stdin").write_all(b"Robin\n")?;
            c.wait_with_output()
        })
        .expect("tabula runs");
    let err = String::from_utf8_lossy(&o.stderr);
    let first = BufReader::new(err.as_bytes())
        .lines()
        .next()
        .and_then(Result::ok)
        .unwrap_or_default();
    assert!(first.contains("Tiers"), "{err}");
    assert_eq!(o.status.code(), Some(2), "{err}");
}
