//! The command reference, `docs/COMMANDS.md`, made from the same
//! [`CommandDoc`]s that `help` prints and the parsers' usage messages quote
//! ([`TextPlay::COMMANDS`]), so the page and the table cannot drift: a test
//! compares the file with [`markdown`], and `tabula commands` prints it.

use std::fmt::Write as _;

use tabula_core::system::{CommandDoc, TextPlay};

use crate::SystemId;

/// Every command of `system`'s book ([`TextPlay::COMMANDS`]).
pub fn commands(system: SystemId) -> &'static [CommandDoc] {
    dispatch!(system, S => <S as TextPlay>::COMMANDS)
}

const GRAMMAR: &str = r#"# Commands

The one command language of Tabula: the terminal (`tabula <system> play`), play
scripts, and the server and browser page (which send the same text) all read it.
This page is generated from the systems' command lists, the same lists `help`
prints: do not edit it by hand; run
`TABULA_UPDATE_DOCS=1 cargo test -p tabula-engine --test all -- reference::` after changing a
command.

## The grammar

A line is `[SEAT:] COMMAND WORD...`.

- **Words** are separated by spaces. `"Double quotes"` group a name with spaces
  into one word, in every system: `attack "Iron Wolf" Brawl`. A quote may close
  part of a word, so a `key="quoted value"` parameter keeps its words together:
  `spec="Knife Fighting"`, `text="This character can cast"`. Typographic quotes
  (`“ ”`) work as `"`. Inside quotes, `\"` is a quote and `\\` a backslash.
  `_` still stands for a space in a name (`Iron_Wolf`).
- **Shell arguments.** `tabula <system> character advance FILE COMMAND...` and
  `tabula campaign advance ... COMMAND...` read the command from the shell's
  arguments. One argument is the whole line as typed
  (`'advance quality Durable'`); of several, each stays one word: the shell
  took its quotes off, so they are put back (`text="This character can cast"`
  arrives as `text=This character can cast` and is read as one word). An
  argument that holds a quote is read as typed. `character advance` gives the
  command as the sheet's `player` (the GM with `--gm`, another seat with
  `--seat NAME`); a sheet that names no player is advanced by a seat called
  `player`.
- **Names** of seats, characters, cards, Stats, Skills, elements and Zones match
  without regard to case and by unambiguous prefix: `stel` finds `Stella` when
  no other name starts so. A name that fits nothing is refused with the names
  that fit there; a prefix of several names is refused with those names.
- **Seats.** `SEAT:` before the command gives it as that seat (`Stella: draw`);
  without one, the seat whose turn it is gives it. The text before the first
  colon is a seat prefix only when it is a seat's name (or the start of one, when
  the line's first word is no command), so free text later in a line may hold
  colons. `GM`, `Storyteller` and `Dealer` all name the GM seat. Seats match
  without regard to case; a name that is no seat is refused with the seats.
- **Usage.** Each command's usage below is the one declaration of how it is
  written: `help` prints it and the one parser of every book reads lines
  against it. `CAPITALS` is a value of one word (quote it if it has spaces),
  `CAPITALS...` one or more words (`act Shield Up on Iron Wolf`), lower case a
  word typed as shown (any case), `a|b` one of them, `[...]` may be left out,
  `( x | y )` one of the sequences, and `key=VALUE` a word written with its key,
  anywhere after the command. A line that does not fit is refused with the
  usage and what is missing or unexpected (`attack: TARGET is missing`).
- **Comments.** A line that is empty or starts with `#` is skipped.
- **Caps.** A line is at most 4,096 bytes and 64 words.
- **Refusals** name the rule in the book's words, by title and section
  (`Sour Grapes, "Check"; R-SG-1`); the JSON form of a refusal also carries the
  seed file. A refused line changes nothing.
- **Odds** read as a percent with one decimal in text (`80.4%`) and as a
  probability from 0 to 1 in JSON.

## The table's own commands

These work in every system. A book command of the same name wins (Sapio's `help`
is Receiving Help); the `/` form is never a book command.

| line | does |
|---|---|
| `?`, `/help` (`help` where the book has none) | the commands the seat may give now, with their usage |
| `/status` | whose turn it is and what they may do |
| `/odds` | the odds of the seat's pending choice |
| `/sheet [NAME]` | a character sheet in plain text, as the seat may read it (hidden cards only for their own seat) |
| `/view [SEAT]` | the seat's view as JSON (a player: only its own) |
| `/log` | every event so far, as the seat may see it |
| `/undo` | the GM's alone (`gm: undo`): take back the last command, dice with it |
| `/auto [off] NAME` | the GM's alone: hand a participant to the book's policy (its commands are logged as `auto: NAME`, with the table's dice or, with `--manual`, yours), or take it back; `/auto` lists who is on autopilot |
| `/quit` | stop |

The same lines work on the table page's command line (the server answers `help`,
`status`, `odds`, `sheet`, `view` and `log` as `play` does; `docs/API.md`).

### Talk and the free roller

Every seat may talk and roll at every table. Each line is one row of the table's
log: it survives restarts and replays, and an undo never removes it (an undo
takes back the last command of the rules only). Talk is plain text of at most
1,000 characters, without control characters.

| line | who | seen by |
|---|---|---|
| `say TEXT` | any seat: in character | every seat |
| `ooc TEXT` | any seat: out of character | every seat |
| `narrate TEXT` | the GM | every seat |
| `whisper SEAT TEXT` (`whisper "Ana B" TEXT`, `whisper gm: TEXT`) | any seat | the speaker, `SEAT` and the GM (who hears every whisper) |
| `roll EXPR [# reason]` | any seat | every seat; the log names who rolled, every die and the reason |
| `roll secret EXPR`, `roll EXPR secret [reason]` | the GM | the GM alone |

`EXPR` is the dice notation of `tabula roll` (`2d6 + 1`, `4d6kh3`, `1d20 + 5 >= 15`).
A seat's own typed dice (`--manual`, or `rolled` on the server) are used for its
roll and marked typed. Tiers' `roll` is the book's check: there a line the book
cannot read but the dice notation can (`roll 2d6 # test`) is a free roll, and
`/roll` always is.

At the terminal, the Up arrow recalls earlier lines (kept across sessions in
`$TABULA_HISTORY`, else `$XDG_STATE_HOME/tabula/history`, else
`~/.local/state/tabula/history`) and Tab completes commands, seats and names.
With `--manual`, the dice prompt says whose roll it is and what for ("Ana, Dodge:
roll 3 d6"); type the faces on one line (`4 2 6`) or one at a time; `undo` there
withdraws the command being rolled for, `quit` withdraws it and stops.
"#;

const JSON_PLAY: &str = r#"## `--json play`

`tabula --json <system> play TABLE` prints one JSON object per line. Every object
has a `type`:

| `type` | when | fields |
|---|---|---|
| `prompt` | before each line is read | `seq` (log rows so far), `seat` (whose turn), `status` (text), `legal` (the commands that seat may give: `name`, `summary`, `params` with `kind` `int` `{min,max}`, `choice` `{options}`, `number-or-name` `{min,max,names}` or `text`), `odds` (`choice`, `probability` 0..1, `detail`) |
| `event` | each accepted event or undo | `line` (the line that gave it), `seq`, `seat`, `kind` (`event` or `undo`), `text` (the event in words, every die and card the seat may see), `event` (the event as JSON, absent when hidden) |
| `refused` | a refused line; nothing changed | `line`, `message` (text), `error`: `{"error": "rule", "rule": {"system", "seed", "section", "ruling"}, "kind", "message"}` for a rule, `{"error": "parse", "parse": ...}` for an unreadable line (`parse` is `unknown` with `got` and `known`; `arguments` with `command`, `problem` and `usage`; `grammar` with `kind`; or `name` with `kind` `unknown` (`field`, `got`, `candidates`) or `ambiguous` (`field`, `got`, `matches`)), `unknown-seat` with `seats`, `gm-only`, `not-your-view`, `too-long`, `nothing-to-undo`, `not-awaited`, `no-suggestion`, `unknown-driver-command` |
| `withdrawn` | `undo` or `quit` typed at a manual dice prompt | `line`, `quit` |
| `help` | `?` | `seat`, `commands` (`name`, `usage`, `summary`, `params`), `seats` |
| `status` | `/status` | `seat`, `status` |
| `odds` | `/odds` | `seat`, `odds` |
| `sheet` | `/sheet` | `seat`, `text` |
| `view` | `/view` | `seat`, `view` (the system's view JSON) |
| `log` | `/log` | `seat`, `lines` (as in `event`) |
| `autopilot` | `/auto` | `on` (the participants on autopilot), `participants` (every name `auto` takes) |
| `note` | the encounter is over; unsaved changes | `text` |
| `summary` | last | `accepted`, `refused`, `withdrawn`, `events`, `finished` |
"#;

fn escape(cell: &str) -> String {
    cell.replace('|', "\\|")
}

/// The whole of `docs/COMMANDS.md`: the grammar, the table's own commands,
/// every system's commands (usage, who gives it, what it does, the rule), and
/// the `--json play` schema.
pub fn markdown() -> String {
    let mut s = String::from(GRAMMAR);
    for system in SystemId::ALL {
        let _ = write!(
            s,
            "\n## {} (`tabula {} play`)\n\n| command | who | does | rule |\n|---|---|---|---|\n",
            system.title(),
            system.id()
        );
        rows(&mut s, commands(system));
        let _ = write!(
            s,
            "\n### Advancement between sessions (`tabula {} character advance FILE ...`, `tabula campaign advance`)\n\n| command | who | does | rule |\n|---|---|---|---|\n",
            system.id()
        );
        rows(&mut s, system.advancement());
    }
    s.push('\n');
    s.push_str(JSON_PLAY);
    s
}

/// One table row per command of `list`.
fn rows(s: &mut String, list: &[CommandDoc]) {
    {
        for c in list {
            let mut usage = format!("`{}`", escape(c.usage));
            if !c.aliases.is_empty() {
                let aliases: Vec<String> = c.aliases.iter().map(|a| format!("`{a}`")).collect();
                let _ = write!(usage, " (also {})", aliases.join(", "));
            }
            let mut rule = format!("\"{}\"", c.rule.section);
            if !c.rule.seed.is_empty() {
                let _ = write!(rule, " ({})", c.rule.seed);
            }
            if let Some(r) = c.rule.ruling {
                let _ = write!(rule, "; {r}");
            }
            let _ = writeln!(
                s,
                "| {usage} | {} | {} | {} |",
                c.giver,
                escape(c.summary),
                escape(&rule)
            );
        }
    }
}
