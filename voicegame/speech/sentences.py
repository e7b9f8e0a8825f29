"""What the speech layer tells a player, per language, when a part of it is missing or stops.

A ``SpeechError`` made with ``SpeechError.of(key, ...)`` reads in English and can be said in the
game's language (``SpeechError.said``): a Dutch game says "Er is geen microfoon gevonden" through its
Dutch voice, not an English sentence. Commands to run stay as they are typed.
"""

from __future__ import annotations

__all__ = ["KEYBOARD_TOLD", "LANGUAGE_NAMES", "language_name", "sentence"]

# The name of each language a model can be for, as said in each language of the game.
LANGUAGE_NAMES = {
    "en": {"en": "English", "nl": "Dutch", "ko": "Korean", "de": "German", "fr": "French", "es": "Spanish"},
    "nl": {"en": "Engels", "nl": "Nederlands", "ko": "Koreaans", "de": "Duits", "fr": "Frans", "es": "Spaans"},
}

_SENTENCES = {
    "en": {
        "no_microphone": "No microphone found, so we'll use the keyboard.",
        "microphone_lost": "The microphone stopped working, so we'll use the keyboard.",
        "microphone_unopened": "The microphone {device} could not be opened, so we'll use the keyboard.",
        "microphone_not_found": "The microphone '{device}' was not found, so we'll use the keyboard.",
        "no_output": "No loudspeaker or headphones found, so I'll show what I would say as text.",
        "output_lost": "The loudspeaker stopped working, so I'll show what I would say as text.",
        "output_stalled": "The loudspeaker stopped playing, so I'll show what I would say as text.",
        "output_not_found": "The sound output '{device}' was not found, so I'll show what I would say as text.",
        "no_portaudio": "The sound library PortAudio is not installed, so we'll use the keyboard and text.",
        "engine_hung": "The speech engine stopped responding, so I'll show what I would say as text.",
        "engine_failed": "The speech engine could not start ({problem}), so I'll show what I would say as text.",
        "engine_silent": "The speech engine made no sound, so I'll show what I would say as text.",
        "voice_settings": "Some voice settings did not work ({problem}), so a standard voice may be heard.",
        "no_model": "There is no {language} speech model on this computer. To get one, run: "
                    "voicegame models fetch {code}",
        "model_incomplete": "The folder {folder} is not a complete Vosk speech model: some of its files are "
                            "missing. Remove it and run: voicegame models fetch {code}",
        "model_folder_missing": "The speech model folder {folder} does not exist. "
                                "To get a model, run: voicegame models fetch {code}",
        "model_damaged": "The speech model in {folder} could not be loaded; it may be damaged. "
                         "Remove it and run: voicegame models fetch {code}",
        "no_game_words": "None of the game's words are in the speech model, so I cannot listen for them. "
                         "The model may be for another language.",
        "vosk_missing": "The Vosk speech recognizer is not installed. Install it with: pip install vosk",
        "pocketsphinx_missing": "PocketSphinx is not installed, so I cannot listen. Run: pip install pocketsphinx",
        "pocketsphinx_english_only": "PocketSphinx only knows English. For {language}, run: "
                                     "voicegame models fetch {code}, then choose --asr auto.",
        "pocketsphinx_unloadable": "PocketSphinx could not load its English model ({problem}). "
                                   "Reinstall it with: pip install --force-reinstall pocketsphinx",
        "grammar_failed": "The speech grammar could not be loaded. Speech is off; type your requests instead.",
        "grammar_failed_words": "The speech grammar could not be loaded. These words have no pronunciation: "
                                "{words}. Speech is off; type your requests instead.",
    },
    "nl": {
        "no_microphone": "Er is geen microfoon gevonden, dus we gebruiken het toetsenbord.",
        "microphone_lost": "De microfoon werkt niet meer, dus we gebruiken het toetsenbord.",
        "microphone_unopened": "De microfoon {device} kon niet worden geopend, dus we gebruiken het toetsenbord.",
        "microphone_not_found": "De microfoon '{device}' is niet gevonden, dus we gebruiken het toetsenbord.",
        "no_output": "Er is geen luidspreker of koptelefoon gevonden, dus ik laat als tekst zien wat ik zou zeggen.",
        "output_lost": "De luidspreker werkt niet meer, dus ik laat als tekst zien wat ik zou zeggen.",
        "output_stalled": "De luidspreker speelt niet meer af, dus ik laat als tekst zien wat ik zou zeggen.",
        "output_not_found": "De geluidsuitgang '{device}' is niet gevonden, dus ik laat als tekst zien wat ik zou "
                            "zeggen.",
        "no_portaudio": "De geluidsbibliotheek PortAudio is niet geïnstalleerd, dus we gebruiken het toetsenbord "
                        "en tekst.",
        "engine_hung": "De spraakmachine reageert niet meer, dus ik laat als tekst zien wat ik zou zeggen.",
        "engine_failed": "De spraakmachine kon niet starten ({problem}), dus ik laat als tekst zien wat ik zou "
                         "zeggen.",
        "engine_silent": "De spraakmachine gaf geen geluid, dus ik laat als tekst zien wat ik zou zeggen.",
        "voice_settings": "Sommige steminstellingen werkten niet ({problem}), dus je hoort misschien een "
                          "standaardstem.",
        "no_model": "Er staat geen {language} spraakmodel op deze computer. Haal er een met: "
                    "voicegame models fetch {code}",
        "model_incomplete": "De map {folder} is geen volledig Vosk-spraakmodel: er ontbreken bestanden. "
                            "Verwijder de map en voer uit: voicegame models fetch {code}",
        "model_folder_missing": "De map van het spraakmodel, {folder}, bestaat niet. "
                                "Haal een model met: voicegame models fetch {code}",
        "model_damaged": "Het spraakmodel in {folder} kon niet worden geladen; misschien is het beschadigd. "
                         "Verwijder het en voer uit: voicegame models fetch {code}",
        "no_game_words": "Geen van de woorden van het spel staat in het spraakmodel, dus ik kan er niet naar "
                         "luisteren. Misschien is het model voor een andere taal.",
        "vosk_missing": "De spraakherkenner Vosk is niet geïnstalleerd. Installeer hem met: pip install vosk",
        "pocketsphinx_missing": "PocketSphinx is niet geïnstalleerd, dus ik kan niet luisteren. "
                                "Voer uit: pip install pocketsphinx",
        "pocketsphinx_english_only": "PocketSphinx kent alleen Engels. Voor {language}: voer uit "
                                     "voicegame models fetch {code}, en kies dan --asr auto.",
        "pocketsphinx_unloadable": "PocketSphinx kon zijn Engelse model niet laden ({problem}). "
                                   "Installeer het opnieuw met: pip install --force-reinstall pocketsphinx",
        "grammar_failed": "De woorden van het spel konden niet in de spraakherkenner worden geladen. "
                          "Spraak is uit; typ je vragen.",
        "grammar_failed_words": "De woorden van het spel konden niet in de spraakherkenner worden geladen. "
                                "Deze woorden hebben geen uitspraak: {words}. Spraak is uit; typ je vragen.",
    },
}


# The sentences that already say the keyboard takes over.
KEYBOARD_TOLD = frozenset({"no_microphone", "microphone_lost", "microphone_unopened", "microphone_not_found",
                           "no_portaudio", "grammar_failed", "grammar_failed_words"})


def language_name(lang: str, code: str) -> str:
    """The name of the language ``code`` in the language ``lang`` ("nl", "nl" -> "Nederlands")."""
    names = LANGUAGE_NAMES.get(lang, LANGUAGE_NAMES["en"])
    return names.get(code, LANGUAGE_NAMES["en"].get(code, code))


def sentence(lang: str, key: str, **fields: object) -> str:
    """The sentence ``key`` in ``lang`` (English where it has none); a ``code`` field also gives
    ``language``, that language's name in ``lang``."""
    table = _SENTENCES.get(lang, _SENTENCES["en"])
    if "code" in fields:
        fields.setdefault("language", language_name(lang, str(fields["code"])))
    return table.get(key, _SENTENCES["en"][key]).format(**fields)
