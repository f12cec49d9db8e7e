//! Every Advantage in the book, with its suit and kind.
//!
//! A Game of Bastards, "Advantages" (003_2dfeea144768d328.txt); R-GB-8: characters
//! start with two Advantages for free, XP buys more (1 XP each). "If a character has
//! a 0 in the trait pool indicated by the suit, they cannot use advantages of that
//! suit."

use serde::{Deserialize, Serialize};
use std::fmt;
use tabula_core::cards::Suit;

/// Where an Advantage is listed in the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// "Defensive".
    Defensive,
    /// "Offensive Advantages" (the only ones a Berserk character may use).
    Offensive,
    /// "Utility Advantages".
    Utility,
}

/// The list's name as the book heads it (`Defensive`, `Offensive`,
/// `Utility`).
impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Defensive => "Defensive",
            Kind::Offensive => "Offensive",
            Kind::Utility => "Utility",
        })
    }
}

/// One Advantage of the book. `Counter` and `Florentine` name a weapon.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Advantage {
    /// `Counter<Weapon>` (Spades): sacrifice defense cards to counter-attack.
    Counter(String),
    /// All-Out Defense (Clubs): Body doubled on physical defense, no actions.
    AllOutDefense,
    /// Defensive Stance (Clubs): fewer attack cards, more defense cards.
    DefensiveStance,
    /// Serendipity (Diamonds): 1 LP for Luck on the next physical defense.
    Serendipity,
    /// Iron Wall (Clubs): a Wildcard: BP damage reduced by Body this round.
    IronWall,
    /// Karmic Shuffle (Diamonds): a Wildcard: everyone defends with Luck.
    KarmicShuffle,
    /// Soul of Steel (Hearts): a Wildcard and the action: SP/BP damage reduced by
    /// twice Spirit this round.
    SoulOfSteel,
    /// Study (Spades): the action: Mind doubled on defense against one opponent.
    Study,
    /// Careful (Spades): draw a card after avoiding damage.
    Careful,
    /// Dodge (Clubs): 1 BP for Body on the next physical defense.
    Dodge,
    /// Mind Over Matter (Spades): 1 MP to move BP damage to MP.
    MindOverMatter,
    /// Tenacity (Clubs): draw a card on BP damage.
    Tenacity,
    /// Savage (Clubs): 1 BP: a second melee attack at -2 on success.
    Savage,
    /// Ambidextrous (Clubs): two-weapon penalty 1 (R-GB-7).
    Ambidextrous,
    /// `Florentine<Weapon>` (Spades): no two-weapon penalty defending with it.
    Florentine(String),
    /// Zeal (Hearts): 1 SP: attack with Spirit.
    Zeal,
    /// Fortune (Diamonds): 1 LP: attack with Luck, the defender with Luck.
    Fortune,
    /// Ass Pull (Diamonds): 1 LP: draw two, discard two.
    AssPull,
    /// Faith (Hearts): draw a card on SP damage.
    Faith,
    /// Speedy (Spades): replace the initiative card without losing the action.
    Speedy,
    /// Berserk (Hearts): a Wildcard: double Body to damage, offensive only, one
    /// card fewer on defense.
    Berserk,
    /// Wild Swing (Clubs): 1 BP: lower Body on the attack, double it to damage.
    WildSwing,
    /// Disarm (Spades): 1 MP: attack off Mind, the opponent drops the weapon.
    Disarm,
    /// Cunning Linguist (Spades): one more card in opposed social draws.
    CunningLinguist,
    /// Criminal (Diamonds): one more card on Stealth or Influence.
    Criminal,
    /// Hearty (Clubs): one more card on Athletics or Dexterity.
    Hearty,
    /// Acrobat (Clubs): redraw up to Body cards in extreme movement.
    Acrobat,
    /// Toughness (Clubs): BP damage -1; up to 5 times.
    Toughness,
    /// Resolve (Hearts): SP damage -1; up to 5 times.
    Resolve,
    /// Brawler (Clubs): Unarmed Combat ranks to damage.
    Brawler,
    /// Grappler (Clubs): Grapple Combat ranks to damage.
    Grappler,
}

/// The most times Toughness or Resolve may be taken.
pub const MAX_STACK: usize = 5;

impl Advantage {
    /// Every Advantage without a weapon (Counter and Florentine take one).
    pub const PLAIN: [Advantage; 29] = [
        Advantage::AllOutDefense,
        Advantage::DefensiveStance,
        Advantage::Serendipity,
        Advantage::IronWall,
        Advantage::KarmicShuffle,
        Advantage::SoulOfSteel,
        Advantage::Study,
        Advantage::Careful,
        Advantage::Dodge,
        Advantage::MindOverMatter,
        Advantage::Tenacity,
        Advantage::Savage,
        Advantage::Ambidextrous,
        Advantage::Zeal,
        Advantage::Fortune,
        Advantage::AssPull,
        Advantage::Faith,
        Advantage::Speedy,
        Advantage::Berserk,
        Advantage::WildSwing,
        Advantage::Disarm,
        Advantage::CunningLinguist,
        Advantage::Criminal,
        Advantage::Hearty,
        Advantage::Acrobat,
        Advantage::Toughness,
        Advantage::Resolve,
        Advantage::Brawler,
        Advantage::Grappler,
    ];

    /// The book's name (without the weapon).
    pub fn name(&self) -> &'static str {
        match self {
            Advantage::Counter(_) => "Counter",
            Advantage::AllOutDefense => "All-Out Defense",
            Advantage::DefensiveStance => "Defensive Stance",
            Advantage::Serendipity => "Serendipity",
            Advantage::IronWall => "Iron Wall",
            Advantage::KarmicShuffle => "Karmic Shuffle",
            Advantage::SoulOfSteel => "Soul of Steel",
            Advantage::Study => "Study",
            Advantage::Careful => "Careful",
            Advantage::Dodge => "Dodge",
            Advantage::MindOverMatter => "Mind Over Matter",
            Advantage::Tenacity => "Tenacity",
            Advantage::Savage => "Savage",
            Advantage::Ambidextrous => "Ambidextrous",
            Advantage::Florentine(_) => "Florentine",
            Advantage::Zeal => "Zeal",
            Advantage::Fortune => "Fortune",
            Advantage::AssPull => "Ass Pull",
            Advantage::Faith => "Faith",
            Advantage::Speedy => "Speedy",
            Advantage::Berserk => "Berserk",
            Advantage::WildSwing => "Wild Swing",
            Advantage::Disarm => "Disarm",
            Advantage::CunningLinguist => "Cunning Linguist",
            Advantage::Criminal => "Criminal",
            Advantage::Hearty => "Hearty",
            Advantage::Acrobat => "Acrobat",
            Advantage::Toughness => "Toughness",
            Advantage::Resolve => "Resolve",
            Advantage::Brawler => "Brawler",
            Advantage::Grappler => "Grappler",
        }
    }

    /// What it does, in one line of the book's words ("Advantages").
    pub fn summary(&self) -> &'static str {
        use Advantage::*;
        match self {
            Counter(_) => {
                "When attacked with a melee weapon while wielding the chosen weapon, sacrifice skill cards on the defense; if successful, use them to attack the same opponent."
            }
            AllOutDefense => {
                "Defense draws against physical attacks add double Body instead of Mind, but no actions this round."
            }
            DefensiveStance => {
                "Lower your attack draws by up to Body cards; raise your defense draws as much until the Opposition ends."
            }
            Serendipity => {
                "Spend 1 LP to use Luck on your next physical defense draw instead of Mind."
            }
            IronWall => "Spend a Wildcard: this round, damage to your BP is reduced by your Body.",
            KarmicShuffle => {
                "Spend a Wildcard: everyone in the Opposition adds Luck to physical defense rolls."
            }
            SoulOfSteel => {
                "Spend a Wildcard and your action: this round, damage to SP or BP is reduced by twice Spirit."
            }
            Study => {
                "Use your action to Study one opponent: double Mind on physical defense against them for the Opposition."
            }
            Careful => "When you successfully avoid taking damage from an attack, draw a card.",
            Dodge => "Spend 1 BP to use Body on your next physical defense draw instead of Mind.",
            MindOverMatter => {
                "Spend 1 MP when taking damage to BP: the damage is dealt to MP instead."
            }
            Tenacity => "Always active: when you sustain damage to BP, draw a card.",
            Savage => {
                "Spend 1 BP before a physical melee attack: if it succeeds, attack again at once at -2."
            }
            Ambidextrous => "The two weapon fighting penalty is reduced to 1 card.",
            Florentine(_) => {
                "No two weapon fighting penalty to defense when defending with the chosen weapon."
            }
            Zeal => "Spend 1 SP on a physical attack: add Spirit instead of Body.",
            Fortune => {
                "Spend 1 LP on a physical attack: add Luck instead of Body; the defender uses Luck instead of Mind."
            }
            AssPull => "Spend 1 LP during your action: draw two cards, then discard two.",
            Faith => "When you take damage to SP, draw a card.",
            Speedy => {
                "Replace your initiative card during your action without sacrificing the action."
            }
            Berserk => {
                "Spend a Wildcard: double Body to physical damage, offensive Advantages only, one card fewer on defense, until the scene ends."
            }
            WildSwing => {
                "Spend 1 BP before a melee attack: lower Body on the attack; if it succeeds, add double the amount to damage."
            }
            Disarm => {
                "Spend 1 MP: a melee attack off Mind that deals no damage but makes the opponent drop their weapon."
            }
            CunningLinguist => "Play an additional card in any opposed social draw.",
            Criminal => "Play an additional card on Stealth or Influence draws.",
            Hearty => "Play an additional card on Athletics or Manual Dexterity draws.",
            Acrobat => {
                "In a Fate Draw of extreme movement, discard up to Body cards and draw a new card for each."
            }
            Toughness => "Always active: reduce damage to BP by 1. May be taken up to 5 times.",
            Resolve => "Always active: reduce damage to SP by 1. May be taken up to 5 times.",
            Brawler => "Add your Unarmed Combat ranks to damage when attacking with the skill.",
            Grappler => "Add your Grapple Combat ranks to damage when attacking with the skill.",
        }
    }

    /// The suit the book gives it.
    pub fn suit(&self) -> Suit {
        use Advantage::*;
        match self {
            Counter(_) | Study | Careful | MindOverMatter | Florentine(_) | Speedy | Disarm
            | CunningLinguist => Suit::Spades,
            Serendipity | KarmicShuffle | Fortune | AssPull | Criminal => Suit::Diamonds,
            SoulOfSteel | Zeal | Faith | Berserk | Resolve => Suit::Hearts,
            AllOutDefense | DefensiveStance | IronWall | Dodge | Tenacity | Savage
            | Ambidextrous | WildSwing | Hearty | Acrobat | Toughness | Brawler | Grappler => {
                Suit::Clubs
            }
        }
    }

    /// Where the book lists it.
    pub fn kind(&self) -> Kind {
        use Advantage::*;
        match self {
            Counter(_) | AllOutDefense | DefensiveStance | Serendipity | IronWall
            | KarmicShuffle | SoulOfSteel | Study | Careful | Dodge | MindOverMatter | Tenacity => {
                Kind::Defensive
            }
            Savage | Ambidextrous | Florentine(_) | Zeal | Fortune | AssPull | Faith | Speedy
            | Berserk | WildSwing | Disarm => Kind::Offensive,
            CunningLinguist | Criminal | Hearty | Acrobat | Toughness | Resolve | Brawler
            | Grappler => Kind::Utility,
        }
    }

    /// Read an Advantage: its name in any case, spaces, hyphens and underscores
    /// ignored; `Counter<Sword>` / `Counter Sword` and `Florentine<Sword>` name the
    /// weapon. `None` when unknown or a weapon is missing.
    pub fn parse(text: &str) -> Option<Advantage> {
        let t = text.trim();
        let norm = |s: &str| {
            s.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect::<String>()
        };
        let (head, weapon) = match t.split_once(['<', '(', ' ']) {
            Some((h, rest)) if matches!(norm(h).as_str(), "counter" | "florentine") => (
                h,
                Some(rest.trim_end_matches(['>', ')']).trim().to_string()),
            ),
            _ => (t, None),
        };
        match (norm(head).as_str(), weapon) {
            ("counter", Some(w)) if !w.is_empty() => return Some(Advantage::Counter(w)),
            ("florentine", Some(w)) if !w.is_empty() => return Some(Advantage::Florentine(w)),
            ("counter" | "florentine", _) => return None,
            _ => {}
        }
        let n = norm(t);
        Advantage::PLAIN.into_iter().find(|a| norm(a.name()) == n)
    }
}

impl fmt::Display for Advantage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Advantage::Counter(w) | Advantage::Florentine(w) => write!(f, "{}<{w}>", self.name()),
            other => f.write_str(other.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_advantage_parses_back_from_its_name() {
        for a in Advantage::PLAIN {
            assert_eq!(Advantage::parse(a.name()), Some(a.clone()));
            assert_eq!(Advantage::parse(&a.to_string()), Some(a));
        }
        assert_eq!(
            Advantage::parse("Counter<Sword>"),
            Some(Advantage::Counter("Sword".into()))
        );
        assert_eq!(
            Advantage::parse("florentine sword"),
            Some(Advantage::Florentine("sword".into()))
        );
        assert_eq!(Advantage::parse("Counter"), None);
        assert_eq!(
            Advantage::parse("all out defense"),
            Some(Advantage::AllOutDefense)
        );
        assert_eq!(Advantage::parse("Flying"), None);
        assert_eq!(Advantage::PLAIN.len() + 2, 31);
    }
}
