//! The zebra puzzle (Einstein's riddle): who drinks water, who owns the zebra?

use ambsolve::{Puzzle, constraints};

/// The answer: who drinks water, who owns the zebra.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The water drinker's nationality.
    pub water: &'static str,
    /// The zebra owner's nationality.
    pub zebra: &'static str,
}

/// Whether two houses are next to each other.
fn next_to(a: i32, b: i32) -> bool {
    (a - b).abs() == 1
}

/// The puzzle, its fifteen clues as constraints: five houses in a row, each with its
/// colour, owner, drink, smoke and pet. Each name is a choice holding the number (1 to 5)
/// of its house.
pub fn zebra() -> Puzzle<'static, Answer> {
    constraints! {
        let red = amb(1..=5);          let green = amb(1..=5);     let ivory = amb(1..=5);
        let yellow = amb(1..=5);       let blue = amb(1..=5);
        let english = amb(1..=5);      let spanish = amb(1..=5);   let ukrainian = amb(1..=5);
        let norwegian = amb(1..=5);    let japanese = amb(1..=5);
        let coffee = amb(1..=5);       let tea = amb(1..=5);       let milk = amb(1..=5);
        let orange_juice = amb(1..=5); let water = amb(1..=5);
        let old_gold = amb(1..=5);     let kools = amb(1..=5);     let chesterfield = amb(1..=5);
        let lucky_strike = amb(1..=5); let parliament = amb(1..=5);
        let dog = amb(1..=5);          let snails = amb(1..=5);    let fox = amb(1..=5);
        let horse = amb(1..=5);        let zebra = amb(1..=5);
        require all_different(red, green, ivory, yellow, blue);
        require all_different(english, spanish, ukrainian, norwegian, japanese);
        require all_different(coffee, tea, milk, orange_juice, water);
        require all_different(old_gold, kools, chesterfield, lucky_strike, parliament);
        require all_different(dog, snails, fox, horse, zebra);
        require english == red;                     // 2. the Englishman lives in the red house
        require spanish == dog;                     // 3. the Spaniard owns the dog
        require coffee == green;                    // 4. coffee is drunk in the green house
        require ukrainian == tea;                   // 5. the Ukrainian drinks tea
        require green == ivory + 1;                 // 6. green is right of ivory
        require old_gold == snails;                 // 7. the Old Gold smoker owns snails
        require kools == yellow;                    // 8. Kools in the yellow house
        require milk == 3;                          // 9. milk in the middle house
        require norwegian == 1;                     // 10. the Norwegian lives in the first house
        require next_to(chesterfield, fox);         // 11. Chesterfield next to the fox
        require next_to(kools, horse);              // 12. Kools next to the horse
        require lucky_strike == orange_juice;       // 13. Lucky Strike smoker drinks orange juice
        require japanese == parliament;             // 14. the Japanese smokes Parliaments
        require next_to(norwegian, blue);           // 15. the Norwegian next to the blue house
    }
    .map(|s| {
        let nations = [
            ("Englishman", s.english),
            ("Spaniard", s.spanish),
            ("Ukrainian", s.ukrainian),
            ("Norwegian", s.norwegian),
            ("Japanese", s.japanese),
        ];
        let in_house = |house: i32| {
            nations
                .iter()
                .find(|n| n.1 == house)
                .map_or("nobody", |n| n.0)
        };
        Answer {
            water: in_house(s.water),
            zebra: in_house(s.zebra),
        }
    })
}
