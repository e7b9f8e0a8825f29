"""Events become short sentences for the whole table.

This is where "Not at home" is put into words (the engine decides it in ``Game._ask_card``).
Public narration names only what the rules make public: requests, transfers, completed
families and turned-over centre cards; never the rest of anyone's hand.
"""

from __future__ import annotations

import re
from typing import Any

from voicegame import names_list
from voicegame.decks import Deck
from voicegame.engine.actions import Action, Ask, Flip, IllegalAction

__all__ = ["PHRASES", "PROMPTS", "Narrator", "prompt", "you_form"]


# Every sentence the table says, per language. Seed 004 gives the Dutch wording ("Niet thuis").
PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "and": "and", "or": "or", "family": "the {surname} family", "one_family": "{n} family",
        "families": "{n} families", "one_card": "{n} card", "cards": "{n} cards",
        "ask_card": "is {card} at home?", "ask_family": "is {family} at home?",
        "deal": "Round {round}. {dealer} deals.", "deal_sudden": "Sudden-death round. {dealer} deals.",
        "deal_sudden_again": "Sudden-death round {number}. {dealer} deals.", "deal_sizes": "{player} {cards}",
        "deal_stock": "{cards} in the stock.", "deal_centre": "{cards} face down in the centre.",
        "ask": "{player} asks {target}: {request}", "give": "{giver} gives {what} to {receiver}.",
        "not_at_home": "{player}: Not at home.", "complete": "{player} completes {family}{how}: {count}.",
        "from_deal": " from the deal", "your_turn": "Your turn, {player}.", "turn": "{player}'s turn.",
        "face_down": "{player} lays a family from the deal face down: {count}.",
        "face_down_drawn": "{player} draws the last card of a family and lays it face down: {count}.",
        "out": "{player} has no cards left, and keeps their families.",
        "out_of_families": "{player} has no families left, and is out of the game.",
        "draw": "{player} draws a card from the stock.",
        "flip": "{player} turns over a centre card: {card}, {kept}.", "kept": "and keeps it",
        "turned_back": "and turns it back",
        "penalty": "{player} forgot to say please, so the turn goes to {target}.",
        "phase": "Every family is complete. Now ask for whole families, such as: is {example} and family at home?"
                 " {player} completed the last family and asks first.",
        "phase_face_down": " The families lie face down: remember who holds which.",
        "round_over": "Round {round} is over. Families: {scores}.", "totals": " Totals: {totals}.",
        "tiebreak": "{players} are tied. A sudden-death round decides: the first to complete a family wins.",
        "tiebreak_again": "{players} are still tied, so another sudden-death round decides.",
        "over_match": "Game over. {winners} {verb} with {n} families in total.", "wins": "wins",
        "share": "share the victory",
        "over_one": "Game over. {winner} wins with {count}.",
        "over_shared": "Game over. {winners} share the victory with {count} each.",
        "over_sudden": "Game over. {winner} wins the sudden-death round, and with it the {what}.",
        "the_match": "match", "the_game": "game",
    },
    "nl": {
        "and": "en", "or": "of", "family": "de familie {surname}", "one_family": "{n} familie",
        "families": "{n} families", "one_card": "{n} kaart", "cards": "{n} kaarten",
        "ask_card": "is {card} thuis?", "ask_family": "is {family} thuis?",
        "deal": "Ronde {round}. {dealer} deelt.", "deal_sudden": "Beslissingsronde. {dealer} deelt.",
        "deal_sudden_again": "Beslissingsronde {number}. {dealer} deelt.", "deal_sizes": "{player} {cards}",
        "deal_stock": "{cards} in de stapel.", "deal_centre": "{cards} dicht in het midden.",
        "ask": "{player} vraagt {target}: {request}", "give": "{giver} geeft {what} aan {receiver}.",
        "not_at_home": "{player}: Niet thuis.", "complete": "{player} maakt {family} compleet{how}: {count}.",
        "from_deal": " bij het uitdelen", "your_turn": "Jij bent aan de beurt, {player}.",
        "turn": "{player} is aan de beurt.",
        "face_down": "{player} legt een familie van het uitdelen dicht neer: {count}.",
        "face_down_drawn": "{player} pakt de laatste kaart van een familie en legt die dicht neer: {count}.",
        "out": "{player} heeft geen kaarten meer, maar houdt de families die al klaar zijn.",
        "out_of_families": "{player} heeft geen families meer en doet niet meer mee.",
        "draw": "{player} pakt een kaart van de stapel.",
        "flip": "{player} draait een middenkaart om: {card}, {kept}.", "kept": "en houdt hem",
        "turned_back": "en legt hem terug",
        "penalty": "{player} vergat alstublieft te zeggen, dus de beurt gaat naar {target}.",
        "phase": "Alle families zijn compleet. Vraag nu om hele families, bijvoorbeeld: is {example} en familie"
                 " thuis? {player} maakte de laatste familie compleet en begint.",
        "phase_face_down": " De families liggen dicht: onthoud wie welke heeft.",
        "round_over": "Ronde {round} is voorbij. Families: {scores}.", "totals": " Totaal: {totals}.",
        "tiebreak": "{players} staan gelijk. Een beslissingsronde volgt: wie het eerst een familie compleet"
                    " maakt, wint.",
        "tiebreak_again": "{players} staan nog steeds gelijk, dus er volgt nog een beslissingsronde.",
        "over_match": "Het spel is uit. {winners} {verb} met in totaal {n} families.", "wins": "wint",
        "share": "delen de winst",
        "over_one": "Het spel is uit. {winner} wint met {count}.",
        "over_shared": "Het spel is uit. {winners} delen de winst met elk {count}.",
        "over_sudden": "Het spel is uit. {winner} wint de beslissingsronde, en daarmee {what}.",
        "the_match": "de wedstrijd", "the_game": "het spel",
    },
}


# What the table itself says to players: prompts, questions, review answers. Same languages as PHRASES.
PROMPTS: dict[str, dict[str, str]] = {
    "en": {
        "intro": "Happy Families with {who}. Deck: {deck}. Rules: {rules}. Seed {seed}.",
        "rules_changed": "{profile}, with {changes}",
        "rules_match": "{rules}; a match: rounds go on until someone has {n} families in all",
        "computer": "{name} (computer, {level})",
        "computers_one": "1 computer player at {level} level: {names}",
        "computers_many": "{n} computer players at {level} level: {names}",
        "names_alike": "{like} and {name} sound alike, so I may mix them up. Could {name} be called {nickname}?",
        "name_like_card": "{name} sounds like a card word ({like}). Could {name} be called {nickname}?",
        "name_like_command": "{name} is also a command ({like}). Could {name} be called {nickname}?",
        "help_hint": "Type hand for your cards, help at any time.",
        "help_hint_voice": "Say hand for your cards, help at any time.",
        "resuming": "Resuming after {n} actions.", "resuming_one": "Resuming after 1 action.",
        "input_ended": "Input ended.",
        "recording_ended": "The recording has ended, so the keyboard takes over.",
        "stopped_saved": "Game stopped. voicegame play --resume carries on where you left off.",
        "stopped_unsaved": "Game stopped. It was not saved.",
        "stopped_before_a_move": "Game stopped before its first move.",
        "stopped_kept": "Game stopped. These moves were not saved; voicegame play --resume carries on from the saved"
                        " game.",
        "saved_game_kept": "The saved game stays as it was.",
        "resume_keeps": "A game carried on keeps its own players, cards, rules and language, so these options were"
                        " not used: {options}.",
        "unsaved": "This game will not be saved. {why}",
        "cannot_save": "Games cannot be saved in {folder} ({reason}): set VOICEGAME_DATA_DIR to a folder you can"
                       " write to, or play with --no-save.",
        "cannot_save_more": "From here on this game cannot be saved in {folder} ({reason}), so it goes on unsaved.",
        "save_unreadable": "Cannot read the saved game {path}: {reason}.",
        "save_damaged_start": "The saved game {name} is damaged at its very start, so it cannot be resumed.",
        "save_not_a_game": "{name} is not a saved voicegame game.",
        "save_other_version": "The saved game {name} was saved by another version of voicegame, so this version"
                              " cannot resume it.",
        "save_no_setup": "The saved game {name} has no set-up, so it cannot be resumed.",
        "save_bad_setup": "The set-up of the saved game {name} cannot be used: {reason}",
        "save_other_language": "The saved game {name} was saved by another version of voicegame, in a language this"
                               " version does not speak ({language}), so it cannot be resumed.",
        "save_odd_bots": "The saved game {name} lists its computer players in a way this version of voicegame does"
                         " not know, so it cannot be resumed.",
        "save_stranger": "The saved game {name} has a computer player {player} who is not at its table, so it cannot"
                         " be resumed.",
        "save_other_level": "The saved game {name} was saved by another version of voicegame, with a computer level"
                            " this version does not have ({level}), so it cannot be resumed.",
        "save_in_use": "The saved game {name} is open in another window: carry it on there, or close it there"
                       " first.",
        "save_cut_off": "The last action was cut off while it was being saved, so it is left out.",
        "save_damaged_at": "The saved game is damaged at line {number}; every action before it is kept.",
        "save_damaged_one_after": "The saved game is damaged at line {number}; every action before it is kept, but"
                                  " not the 1 line after it. The file {name} stays as it was.",
        "save_damaged_after": "The saved game is damaged at line {number}; every action before it is kept, but not"
                              " the {after} lines after it. The file {name} stays as it was.",
        "nothing_to_resume": "There is no unfinished game to resume. Start one with: voicegame play --players You"
                             " --bots 2",
        "nothing_else_to_resume": "There is no other unfinished game to resume. Start one with: voicegame play"
                                  " --players You --bots 2",
        "resume_newest": "So I carry on the newest game that can be resumed.",
        "unfinished_kept": "Your last game, with {players}, is still saved: voicegame saved lists it, with how to carry"
                           " it on.",
        "already_over": "That game is already over. Start a new one with: voicegame play",
        "recording_unused": "The recording {path} is not used, because this game is typed.",
        "typing_instead": "{problem} You can type instead.",
        "push_to_talk": "Push to talk: press Enter, speak, then press Enter again.",
        "listening": "(listening: press Enter when you have finished)",
        "push_to_talk_no_terminal": "Push to talk needs the keyboard of a terminal, so I'll listen for the end of"
                                    " what you say instead.",
        "private_on_screen": "Private lines of {names} (hands, help) are shown on the screen only, not spoken."
                             " To hear them privately, give each player headphones: --seat {player}=USB Headset.",
        "headphones_missing": "{player}'s headphones ('{device}') were not found, so {player}'s private lines will be"
                              " shown on the screen.",
        "headphones_unusable": "{player}'s headphones cannot be used here, so {player}'s private lines will be shown"
                               " on the screen.",
        "on_screen": "{player}, that is on the screen for you.",
        "unknown_words": "The speech model does not know these words, so it cannot hear them: {words}. Type them "
                         "instead, or give players other names.",
        "commands": "Other commands: hand, status, history, repeat, undo, help, quit.",
        "commands_voice": "Other commands: my hand, status, history, repeat, what did you hear, undo, help,"
                          " slower, faster, more detail, less detail, pause, quit.",
        "nothing_to_answer": "There is nothing to answer yes or no to.",
        "not_an_answer": "I didn't catch your answer.",
        "nothing_to_flip": "There is no centre card to turn over now.",
        "no_centre_cards": "This game has no centre cards to turn over.",
        "who": "Who do you want to ask for {what}? Say a name: {names}.",
        "magic_word": "Remember the magic word, {player}: ask again with please.",
        "heard_request": "I heard you ask {target} for {what}.",
        "confirm_ask": "Did you ask {target} for {what}?",
        "confirm_ask_unpolite": "Did you ask {target} for {what}, without please?",
        "confirm_other": "Then did you ask {target} for {what}?",
        "confirm_other_unpolite": "Then did you ask {target} for {what}, without please?",
        "say_again": "All right. Say your request again.",
        "yes_no_hint": "Say yes or no.",
        "flip_prompt": "You may turn over a centre card: say its number ({slots}), or pass.",
        "nothing_to_undo": "There is nothing to undo.",
        "undo_spent": "Only the last move can be taken back, and it has been.",
        "confirm_undo": "Undo {what}?", "undo_request": "{player}'s request to {target} for {card}",
        "undo_move": "{player}'s last move", "undone": "Undone. Your turn again, {player}.",
        "not_undone": "All right, nothing was undone.",
        "confirm_quit": "Stop the game?", "play_on": "All right, we play on.",
        "confirm_flip": "Turn over centre card {number}?", "confirm_pass": "Pass, and turn over no card?",
        "not_turned": "All right, nothing is done yet.",
        "no_cards": "{player}, you have no cards.", "hand": "{player}, you hold {cards}. {groups}.",
        "hand_family": "{player}, of the {surname} family you hold {cards}.",
        "hand_family_none": "{player}, you hold none of the {surname} family.",
        "hand_families": "{player}, you hold {count}: {surnames}.", "no_families": "{player}, you hold no family.",
        "family_held": "{player}, you hold {family}.", "family_not_held": "{player}, you do not hold {family}.",
        "drew": "{player}, you drew {card}.",
        "status_turn": "{player}'s turn. ", "status_player": "{player} {cards}, {families}{named}",
        "match_totals": " Match totals: {totals}.",
        "status_centre": " Centre cards face down: {n}.",
        "history_line": "{player} asked {target} for {what}: {outcome}.", "given": "given",
        "outcome_not_at_home": "not at home", "outcome_penalty": "no please, turn lost", "no_history": "No requests yet.",
        "history_off": "History is off in this game: it is a memory challenge.",
        "help_flip": "Say the number of a centre card to turn it over, or pass.",
        "help_families": "You can ask {targets} for a whole family: {families}. For example: {target}, is {example}"
                         " and family at home, please?",
        "help_surname": "Or ask for a whole family: {target}, is the {surname} family at home, please?",
        "help_cards": "You can ask {targets} for {cards}. For example: {target}, is {card} at home, please?",
        "others": "others (more detail lists them all)",
        "paused": "Paused. Say continue when you are ready.", "resumed": "Let's go on. Your turn, {player}.",
        "still_your_turn": "It's still your turn, {player}.",
        "described_ask": "ask {target} for {what}", "described_who": "(who?)",
        "described_confirm": " (would ask to confirm)", "described_confidence": ", confidence {confidence}.",
        "described_not_understood": "not understood: {reason}",
        "described_let_pass": "let pass (table talk, not for the game).", "described_command": "command: {intent}.",
        "described_nothing": "nothing heard.",
        "laid_face_down": "{player}, the family you laid face down is {family}.",
        "rate": "Speaking at {rate} words a minute.",
        "rate_no_voice": "Speech speed works when the game speaks: start it with --voice.",
        "rate_no_output": "There is no loudspeaker here, so there is no speech to slow down or speed up.",
        "verbose_on": "I'll give more detail.", "verbose_off": "I'll keep it short.",
        "not_understood": "I didn't understand that.",
        "heard_let_pass": "Before that I heard: {words}. It did not sound clearly meant for me, so I let it pass."
                          " Say it again, a little closer to the microphone or louder.",
        "heard_nothing_else": "I heard nothing else since I last answered.",
        "heard_typed": "I am not listening: this game is typed.",
        "slow_computer": "This computer is too slow for my careful listening, so I listen more simply from now on."
                         " In a noisy room I may miss more of what you say.",
    },
    "nl": {
        "intro": "Kwartet met {who}. Kaarten: {deck}. Regels: {rules}. Seed {seed}.",
        "rules_changed": "{profile}, met {changes}",
        "rules_match": "{rules}; een wedstrijd: er worden rondes gespeeld tot iemand in totaal {n} families heeft",
        "computer": "{name} (computer, {level})",
        "computers_one": "1 computerspeler op niveau {level}: {names}",
        "computers_many": "{n} computerspelers op niveau {level}: {names}",
        "names_alike": "{like} en {name} klinken bijna hetzelfde, dus ik kan ze door elkaar halen. Kan {name}"
                       " {nickname} heten?",
        "name_like_card": "{name} klinkt als een woord op de kaarten ({like}). Kan {name} {nickname} heten?",
        "name_like_command": "{name} is ook een opdracht ({like}). Kan {name} {nickname} heten?",
        "help_hint": "Typ hand voor je kaarten, help als je hulp wilt.",
        "help_hint_voice": "Zeg hand voor je kaarten, help als je hulp wilt.",
        "resuming": "We gaan verder na {n} zetten.", "resuming_one": "We gaan verder na 1 zet.",
        "input_ended": "De invoer is op.",
        "recording_ended": "De opname is afgelopen, dus het toetsenbord neemt het over.",
        "stopped_saved": "Het spel is gestopt. Met voicegame play --resume ga je verder waar je was.",
        "stopped_before_a_move": "Het spel is gestopt vóór de eerste zet.",
        "stopped_unsaved": "Het spel is gestopt. Het is niet bewaard.",
        "stopped_kept": "Het spel is gestopt. Deze zetten zijn niet bewaard; met voicegame play --resume ga je verder"
                        " vanaf het bewaarde spel.",
        "saved_game_kept": "Het bewaarde spel blijft zoals het was.",
        "resume_keeps": "Een spel dat verder gaat, houdt zijn eigen spelers, kaarten, regels en taal, dus deze opties"
                        " zijn niet gebruikt: {options}.",
        "unsaved": "Dit spel wordt niet bewaard. {why}",
        "cannot_save": "Spellen kunnen niet worden bewaard in {folder} ({reason}): zet VOICEGAME_DATA_DIR op een map"
                       " waarin je mag schrijven, of speel met --no-save.",
        "cannot_save_more": "Vanaf nu kan dit spel niet meer worden bewaard in {folder} ({reason}), dus het gaat"
                            " verder zonder te bewaren.",
        "save_unreadable": "Het bewaarde spel {path} kan niet worden gelezen: {reason}.",
        "save_damaged_start": "Het bewaarde spel {name} is meteen aan het begin beschadigd, dus het kan niet verder.",
        "save_not_a_game": "{name} is geen bewaard voicegame-spel.",
        "save_other_version": "Het bewaarde spel {name} is bewaard door een andere versie van voicegame, dus deze"
                              " versie kan er niet mee verder.",
        "save_no_setup": "Het bewaarde spel {name} heeft geen opzet, dus het kan niet verder.",
        "save_bad_setup": "De opzet van het bewaarde spel {name} is niet bruikbaar: {reason}",
        "save_other_language": "Het bewaarde spel {name} is bewaard door een andere versie van voicegame, in een taal"
                               " die deze versie niet spreekt ({language}), dus het kan niet verder.",
        "save_odd_bots": "Het bewaarde spel {name} noemt zijn computerspelers op een manier die deze versie van"
                         " voicegame niet kent, dus het kan niet verder.",
        "save_stranger": "Het bewaarde spel {name} heeft een computerspeler {player} die niet aan tafel zit, dus het"
                         " kan niet verder.",
        "save_other_level": "Het bewaarde spel {name} is bewaard door een andere versie van voicegame, met een"
                            " computerniveau dat deze versie niet heeft ({level}), dus het kan niet verder.",
        "save_in_use": "Het bewaarde spel {name} is open in een ander venster: speel het daar verder, of sluit"
                       " het daar eerst.",
        "save_cut_off": "De laatste zet werd afgebroken terwijl hij werd bewaard, dus die valt weg.",
        "save_damaged_at": "Het bewaarde spel is beschadigd op regel {number}; elke zet daarvoor blijft bewaard.",
        "save_damaged_one_after": "Het bewaarde spel is beschadigd op regel {number}; elke zet daarvoor blijft"
                                  " bewaard, maar niet de 1 regel erna. Het bestand {name} blijft zoals het was.",
        "save_damaged_after": "Het bewaarde spel is beschadigd op regel {number}; elke zet daarvoor blijft bewaard,"
                              " maar niet de {after} regels erna. Het bestand {name} blijft zoals het was.",
        "nothing_to_resume": "Er is geen onafgemaakt spel om verder te spelen. Begin er een met: voicegame play"
                             " --lang nl",
        "nothing_else_to_resume": "Er is geen ander onafgemaakt spel om verder te spelen. Begin er een met:"
                                  " voicegame play --lang nl",
        "resume_newest": "Dus ik ga verder met het nieuwste spel dat verder kan.",
        "unfinished_kept": "Je laatste spel, met {players}, is nog bewaard: voicegame saved noemt het, en hoe je"
                           " verder speelt.",
        "already_over": "Dat spel is al afgelopen. Begin een nieuw met: voicegame play --lang nl",
        "recording_unused": "De opname {path} wordt niet gebruikt, want dit spel wordt getypt.",
        "typing_instead": "{problem} Je kunt ook typen.",
        "push_to_talk": "Drukken om te praten: druk op Enter, spreek, en druk dan weer op Enter.",
        "listening": "(ik luister: druk op Enter als je klaar bent)",
        "push_to_talk_no_terminal": "Drukken om te praten werkt alleen met het toetsenbord van een terminal, dus ik"
                                    " luister gewoon tot je uitgesproken bent.",
        "private_on_screen": "Wat alleen voor {names} bedoeld is (hand, hulp), komt op het scherm en wordt niet"
                             " uitgesproken. Geef elke speler een koptelefoon om het privé te horen:"
                             " --seat {player}=USB Headset.",
        "on_screen": "{player}, dat staat voor jou op het scherm.",
        "unknown_words": "Het spraakmodel kent deze woorden niet, dus het kan ze niet horen: {words}. Typ ze, of "
                         "geef spelers andere namen.",
        "headphones_missing": "De koptelefoon van {player} ('{device}') is niet gevonden, dus wat {player} alleen"
                              " zelf mag horen, komt op het scherm.",
        "headphones_unusable": "De koptelefoon van {player} kan hier niet worden gebruikt, dus wat {player} alleen"
                               " zelf mag horen, komt op het scherm.",
        "commands": "Andere opdrachten: hand, stand, geschiedenis, herhaal, terug, help, stop.",
        "commands_voice": "Andere opdrachten: mijn hand, stand, geschiedenis, herhaal, wat hoorde je, terug, help,"
                          " langzamer, sneller, meer uitleg, korter, pauze, stop.",
        "nothing_to_answer": "Er is niets om ja of nee op te zeggen.",
        "not_an_answer": "Ik heb je antwoord niet verstaan.",
        "nothing_to_flip": "Er is nu geen middenkaart om om te draaien.",
        "no_centre_cards": "In dit spel liggen geen middenkaarten om om te draaien.",
        "who": "Wie wil je om {what} vragen? Zeg een naam: {names}.",
        "magic_word": "Denk aan het toverwoord, {player}: vraag het nog eens met alstublieft.",
        "heard_request": "Ik hoorde: {target}, {what}.",
        "confirm_ask": "Bedoel je: {target}, {what}?",
        "confirm_ask_unpolite": "Bedoel je: {target}, {what}, zonder alstublieft te zeggen?",
        "confirm_other": "Of bedoel je: {target}, {what}?",
        "confirm_other_unpolite": "Of bedoel je: {target}, {what}, zonder alstublieft te zeggen?",
        "say_again": "Goed. Zeg je vraag nog eens.",
        "yes_no_hint": "Zeg ja of nee.",
        "flip_prompt": "Je mag een middenkaart omdraaien: zeg het nummer ({slots}), of zeg pas.",
        "nothing_to_undo": "Er is niets om ongedaan te maken.",
        "undo_spent": "Alleen de laatste zet kan worden teruggenomen, en dat is al gebeurd.",
        "confirm_undo": "{what} ongedaan maken?",
        "undo_request": "De vraag van {player} aan {target} om {card}", "undo_move": "De laatste zet van {player}",
        "undone": "Ongedaan gemaakt. Jij bent weer aan de beurt, {player}.",
        "not_undone": "Goed, er is niets ongedaan gemaakt.",
        "confirm_quit": "Het spel stoppen?", "play_on": "Goed, we spelen verder.",
        "confirm_flip": "Middenkaart {number} omdraaien?", "confirm_pass": "Pas je, zonder een kaart om te draaien?",
        "not_turned": "Goed, er is nog niets gebeurd.",
        "no_cards": "{player}, je hebt geen kaarten.", "hand": "{player}, je hebt {cards}. {groups}.",
        "hand_family": "{player}, van de familie {surname} heb je {cards}.",
        "hand_family_none": "{player}, je hebt niemand van de familie {surname}.",
        "hand_families": "{player}, je hebt {count}: {surnames}.", "no_families": "{player}, je hebt geen familie.",
        "family_held": "{player}, je hebt {family}.", "family_not_held": "{player}, je hebt {family} niet.",
        "drew": "{player}, je hebt {card} gepakt.",
        "status_turn": "{player} is aan de beurt. ", "status_player": "{player} {cards}, {families}{named}",
        "match_totals": " Wedstrijdstand van de vorige rondes: {totals}.",
        "status_centre": " Middenkaarten nog omgekeerd: {n}.",
        "history_line": "{player} vroeg {target} om {what}: {outcome}.", "given": "gekregen",
        "outcome_not_at_home": "niet thuis", "outcome_penalty": "geen alstublieft, beurt kwijt",
        "no_history": "Er is nog niets gevraagd.",
        "history_off": "De geschiedenis staat uit in dit spel: het is een geheugenspel.",
        "help_flip": "Zeg het nummer van een middenkaart om hem om te draaien, of zeg pas.",
        "help_families": "Je kunt {targets} vragen om een hele familie: {families}. Bijvoorbeeld: {target}, is"
                         " {example} en familie thuis, alstublieft?",
        "help_surname": "Of vraag om een hele familie: {target}, is de familie {surname} thuis, alstublieft?",
        "help_cards": "Je kunt {targets} vragen om {cards}. Bijvoorbeeld: {target}, is {card} thuis, alstublieft?",
        "others": "nog meer kaarten (zeg meer uitleg om ze allemaal te horen)",
        "paused": "Pauze. Zeg verder als je klaar bent.", "resumed": "We gaan verder. Jij bent aan de beurt, {player}.",
        "still_your_turn": "Je bent nog steeds aan de beurt, {player}.",
        "described_ask": "vraag {target} om {what}", "described_who": "(wie?)",
        "described_confirm": " (zou eerst vragen of het klopt)", "described_confidence": ", zekerheid {confidence}.",
        "described_not_understood": "niet begrepen: {reason}",
        "described_let_pass": "genegeerd (praat aan tafel, niet voor het spel).",
        "described_command": "opdracht: {intent}.", "described_nothing": "niets gehoord.",
        "laid_face_down": "{player}, de familie die je dicht hebt neergelegd, is {family}.",
        "rate": "Ik spreek nu {rate} woorden per minuut.",
        "rate_no_voice": "De spreeksnelheid werkt als het spel spreekt: start het met --voice.",
        "rate_no_output": "Er is hier geen luidspreker, dus er is geen spraak om langzamer of sneller te maken.",
        "verbose_on": "Ik vertel meer.", "verbose_off": "Ik houd het kort.",
        "not_understood": "Dat heb ik niet begrepen. Probeer: {example}",
        "heard_let_pass": "Daarvoor hoorde ik: {words}. Het klonk niet alsof het voor mij bedoeld was, dus ik heb er"
                          " niets mee gedaan. Zeg het nog eens, wat dichter bij de microfoon of wat harder.",
        "heard_nothing_else": "Ik heb verder niets gehoord sinds mijn laatste antwoord.",
        "heard_typed": "Ik luister niet: dit spel wordt getypt.",
        "slow_computer": "Deze computer is te traag om zorgvuldig te luisteren, dus ik luister vanaf nu eenvoudiger."
                         " In een lawaaiige kamer mis ik misschien meer van wat je zegt.",
    },
}

# The engine's refusals are English sentences; for Dutch the table says these instead, by error code.
REFUSALS_NL: dict[str, str] = {
    "self": "Je kunt jezelf niets vragen. Vraag een andere speler.",
    "target_empty": "{player} heeft geen kaarten meer. Vraag iemand anders.",
    "own_card": "{card} heb je zelf al.",
    "family_not_held": "Je hebt geen kaart van {family}, dus daar mag je niet om vragen.",
    "family_complete": "{family} is al compleet.",
    "not_your_turn": "Je bent nu niet aan de beurt. Wacht even.",
    "unknown_player": "Die speler doet niet mee.",
    "unknown_card": "Die kaart zit niet in dit spel.",
    "wrong_phase": "Dat kan nu niet.",
    "bad_action": "Dat kan niet.",
}
# How computer levels, rules profiles and rules are said in a language, where not by their English
# names (which stay what is typed on the command line and in the config file).
SAID_NAMES = {"nl": {"random": "willekeurig", "child": "kind", "memory": "geheugen", "expert": "expert",
                     "guide": "modern", "classic": "klassiek", "dutch": "nederlands"}}
_RULE_NAMES = {"nl": {
    "deck": "kaarten", "after_miss": "beurt na niet thuis", "second_phase": "tweede fase: hele families vragen",
    "families_face_down": "families dicht", "politeness_penalty": "straf zonder alstublieft", "bluff": "bluffen",
    "ask_by_surname": "vragen om een hele familie", "stock": "stapel", "centre_cards": "middenkaarten",
    "three_generations": "drie generaties", "dealer_gets_fewest": "gever krijgt de minste kaarten",
    "first_player": "wie begint", "lay_out_dealt_families": "gedeelde families meteen neerleggen",
    "match_target": "wedstrijd tot", "next_dealer": "volgende gever", "tie_break": "beslissingsronde"}}
_RULE_VALUES = {"en": {True: "on", False: "off"},
                "nl": {True: "aan", False: "uit", "asked": "de gevraagde speler", "clockwise": "met de klok mee",
                       "left_of_dealer": "links van de gever", "dealer": "de gever", "winner": "de winnaar"}}


def said_name(name: str, lang: str) -> str:
    """A level or rules profile as it is said in ``lang`` ("kind" for child in Dutch)."""
    return SAID_NAMES.get(lang, {}).get(name, name)


def rule_change(key: str, value: Any, lang: str) -> str:
    """One rule changed from its profile, as said in ``lang``: "stock 5", "politeness penalty on",
    "stapel: 5"."""
    values = _RULE_VALUES.get(lang, _RULE_VALUES["en"])
    # 0 is "off" (match target 0: one round), but 1 is no "on" (1 == True in Python).
    said = values.get(value, value) if isinstance(value, (bool, str)) else values[False] if value == 0 else value
    if lang in _RULE_NAMES:
        return f"{_RULE_NAMES[lang].get(key, key)}: {said}"
    return f"{key.replace('_', ' ')} {said}"


# Where one code covers several of the engine's sentences (``IllegalAction.reason``).
REASONS_NL: dict[str, str] = {
    "nothing_to_undo": "Er is niets om terug te nemen.",
    "game_over": "Het spel is uit. Begin een nieuw spel om nog eens te spelen.",
    "flip_first": "Draai eerst een middenkaart om, of zeg pas, voor je weer vraagt.",
    "not_in_round": "{player} speelt deze ronde niet mee.",
    "one_card": "Vraag om één kaart, bij naam, zoals {example}.",
    "whole_family": "Alle families zijn compleet: vraag nu om een hele familie, zoals: is {card} en familie thuis?",
    "own_family": "{family} heb je zelf al. Vraag om een familie die je niet hebt.",
    "no_families": "{player} heeft geen families meer. Vraag iemand anders.",
    "flip_after_miss": "Een middenkaart draai je alleen om na een vraag die mislukte.",
    "nothing_to_pass": "Je kunt nu niet passen.",
}
_FLIP_REFUSAL_NL = "Middenkaart {number} kun je niet omdraaien. Kies een ander nummer, of zeg pas."
# What a Dutch refusal says when the request does not name the player, card or family.
_REFUSAL_UNNAMED_NL = {"player": "die speler", "card": "die kaart", "family": "die familie"}


# A lone player's default name is "You" (config.Settings): sentences about "You" are turned to
# speak to them ("You ask Cara", "Your turn."), English only.
_YOU_FORMS = [
    (re.compile(r"\bYou, you "), "You "),
    (re.compile(r"(?<=\w )You's\b"), "your"),
    (re.compile(r"\bYou's\b"), "Your"),
    (re.compile(r"\bYou (ask|give|complete|draw|turn|win|lay)s\b"), r"You \1"),
    (re.compile(r"\bYou has\b"), "You have"),
    (re.compile(r"^You draw the last card of a family and lays it\b"), "You draw the last card of a family and lay it"),
    (re.compile(r"\bYou (\d+ cards?, )"), r"You have \1"),  # the status line: "You 16 cards, 0 families; Cara ..."
    (re.compile(r"^You have no cards left, and keeps their families\."),
     "You have no cards left, and keep your families."),
    (re.compile(r"^You have no families left, and is out\b"), "You have no families left, and are out"),
    (re.compile(r"^You, of the "), "Of the "),
    (re.compile(r"\b(asks|asked|to|from) You\b"), r"\1 you"),
    (re.compile(r", You([.:])"), r"\1"),
]


def prompt(lang: str, key: str, **fields: Any) -> str:
    """One of the table's own sentences (PROMPTS) in ``lang``; English for a language it lacks."""
    return PROMPTS.get(lang, PROMPTS["en"])[key].format(**fields)


def you_form(line: str) -> str:
    """``line`` with the player called You spoken to rather than about."""
    for pattern, replacement in _YOU_FORMS:
        line = pattern.sub(replacement, line)
    return line


class Narrator:
    """Turns engine events into sentences; ``verbose`` adds the full card names and deal details."""

    def __init__(self, deck: Deck, humans: set[str] | frozenset[str] = frozenset(), lang: str = "en",
                 verbose: bool = False) -> None:
        self.deck = deck
        self.humans = set(humans)
        self.lang = lang
        self.verbose = verbose
        self.phrases = PHRASES.get(lang, PHRASES["en"])

    def t(self, key: str, **fields: Any) -> str:
        return self.phrases[key].format(**fields)

    def prompt(self, key: str, **fields: Any) -> str:
        """One of the table's own sentences (PROMPTS), in the game's language."""
        return prompt(self.lang, key, **fields)

    def refusal(self, refused: IllegalAction, action: Action | None = None) -> str:
        """The engine's reason for refusing ``action``, in the game's language (the engine's own
        ``message`` is English), naming the player, card or family asked about."""
        code = refused.code
        if self.lang != "nl" or code not in REFUSALS_NL:
            return refused.message
        if isinstance(action, Flip) and code == "bad_action":  # no such card face down, or one seen before
            return _FLIP_REFUSAL_NL.format(number=action.slot + 1)
        names = dict(_REFUSAL_UNNAMED_NL, example=self.card(refused.example or self.deck.cards[0].id, "short"))
        if isinstance(action, Ask):
            names["player"] = action.target
            if action.card is not None and self.deck.has_card(action.card):
                names["card"] = self.card(action.card, "short")
                names["family"] = self.family(self.deck.card(action.card).family)
            elif action.family is not None and self.deck.has_family(action.family):
                names["card"] = names["family"] = self.family(action.family)
        line = REASONS_NL.get(refused.reason or "", REFUSALS_NL[code]).format(**names)
        return line[0].upper() + line[1:]

    @staticmethod
    def voice_of(event: dict[str, Any]) -> str | None:
        """Whose words a sentence is, when a player says it: the asker asks, the asked answers
        "Not at home". The rest is the narrator's (None)."""
        if event["type"] == "ask":
            return event["player"]
        if event["type"] == "not_at_home":
            return event["player"]
        return None

    def names(self, names: list[str], conjunction: str = "and") -> str:
        return names_list(names, self.phrases[conjunction])

    def count(self, n: int) -> str:
        return self.t("one_family" if n == 1 else "families", n=n)

    def cards(self, n: int) -> str:
        return self.t("one_card" if n == 1 else "cards", n=n)

    def card(self, card_id: str, form: str | None = None) -> str:
        return self.deck.card(card_id).name(self.lang, form or ("full" if self.verbose else "short"))

    def family(self, key: str) -> str:
        """ "the Bun family" reads better aloud than any plural of Bones or Grits."""
        return self.t("family", surname=self.deck.family(key).name(self.lang, "surname"))

    def request(self, event: dict[str, Any]) -> str:
        if "card" in event:
            return self.t("ask_card", card=self.card(event["card"]))
        return self.t("ask_family", family=self.family(event["family"]))

    def sentences(self, events: list[dict[str, Any]]) -> list[str]:
        out = []
        for event in events:
            line = self.sentence(event)
            if line:
                out.append(line)
        return out

    def sentence(self, e: dict[str, Any]) -> str | None:
        kind = e["type"]
        t = self.t
        if kind == "deal":
            sudden = e.get("sudden_death")
            if sudden:  # a tie-break round: numbered as such, not as the match's next round
                line = t("deal_sudden_again", number=sudden, dealer=e["dealer"]) if sudden > 1 else t(
                    "deal_sudden", dealer=e["dealer"])
            else:
                line = t("deal", round=e["round"], dealer=e["dealer"])
            if self.verbose:
                line += " " + ", ".join(t("deal_sizes", player=p, cards=self.cards(n)) for p, n in e["hand_sizes"].items()) + "."
            if e.get("stock"):
                line += " " + t("deal_stock", cards=self.cards(e["stock"]))
            if e.get("centre"):
                line += " " + t("deal_centre", cards=self.cards(e["centre"]))
            return line
        if kind == "ask":
            return t("ask", player=e["player"], target=e["target"], request=self.request(e))
        if kind == "transfer":
            what = self.family(e["family"]) if "family" in e else self.names([self.card(c, "full") for c in e["cards"]])
            return t("give", giver=e["from"], what=what, receiver=e["to"])
        if kind == "not_at_home":
            return t("not_at_home", player=e["player"])
        if kind == "family_complete":
            if "family" not in e:  # laid face down from the deal or a draw (families_face_down): nobody else knows which
                return t("face_down_drawn" if e.get("drawn") else "face_down", player=e["player"],
                         count=self.count(e["families"]))
            return t("complete", player=e["player"], family=self.family(e["family"]),
                     how=self.phrases["from_deal"] if e.get("dealt") else "", count=self.count(e["families"]))
        if kind == "turn":
            return t("your_turn" if e["player"] in self.humans else "turn", player=e["player"])
        if kind == "player_out":
            return t("out_of_families" if e.get("lost") == "families" else "out", player=e["player"])
        if kind == "draw":
            return t("draw", player=e["player"])
        if kind == "flip":
            return t("flip", player=e["player"], card=self.card(e["card"], "full"),
                     kept=self.phrases["kept" if e["kept"] else "turned_back"])
        if kind == "penalty":
            return t("penalty", player=e["player"], target=e["target"])
        if kind == "phase":
            line = t("phase", example=self.deck.families[0].cards[0].name(self.lang, "short"), player=e["player"])
            return line + self.phrases["phase_face_down"] if e.get("face_down") else line
        if kind == "round_over":
            line = t("round_over", round=e["round"], scores=", ".join(f"{p} {n}" for p, n in e["scores"].items()))
            if e["totals"] != e["scores"]:
                line += t("totals", totals=", ".join(f"{p} {n}" for p, n in e["totals"].items()))
            return line
        if kind == "tiebreak":
            return t("tiebreak_again" if e.get("again") else "tiebreak", players=self.names(e["players"]))
        if kind == "game_over":
            winners = e["winners"]
            if e.get("tiebreak") and len(winners) == 1:
                # Not "wins with 10 in total" just after the other tied player was said to have 10 too.
                return t("over_sudden", winner=winners[0],
                         what=self.phrases["the_match" if "totals" in e else "the_game"])
            if "totals" in e:
                return t("over_match", winners=self.names(winners), n=e["totals"][winners[0]],
                         verb=self.phrases["wins" if len(winners) == 1 else "share"])
            count = self.count(e["scores"][winners[0]] if winners else 0)
            if len(winners) == 1:
                return t("over_one", winner=winners[0], count=count)
            return t("over_shared", winners=self.names(winners), count=count)
        return None
