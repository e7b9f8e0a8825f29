"""Speech adapters: recognizers (Vosk, PocketSphinx), speech output (pyttsx3) and audio I/O,
each behind the small interfaces in ``base``."""
