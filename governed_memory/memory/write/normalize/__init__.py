"""Normalisation of values: channels, BCP-47 languages, IANA zones, hour ranges, whitespace.

Everything here is deterministic, offline and pure (no I/O besides the bundled tz database).
The public functions take a word, a phrase or a short clause and return the canonical value, or
None when the text does not name one; `normalize_structured_value` applies them to the value of a
known profile key and raises `InvalidInput` for a value it cannot canonicalise.

Split by kind of value:

    _text       folding, whitespace, Chinese numerals (`zh_number`), mentions in a text
    channels    notification channels
    languages   BCP-47 language tags
    timezones   IANA time zones
    hours       hour ranges and named periods, as contact or quiet hours
    structured  `normalize_structured_value`, over the modules above

Defaults chosen for hour ranges (documented once here; `normalize_hours` and
`normalize_quiet_hours` share them):

* working / business / office hours, 工作时间, 上班时间, 办公时间, 工作日 -> 09:00-18:00
* 白天, daytime, during the day -> 09:00-21:00
* 上午, 早上, morning -> 09:00-12:00; 中午, 午休, noon, lunchtime -> 12:00-14:00;
  下午, afternoon -> 13:00-18:00; 傍晚 -> 17:00-19:00; 凌晨 -> 00:00-06:00
* 晚上, evening, after work -> 18:00-22:00 as contact hours, but 22:00-08:00 as quiet hours
  ("晚上别打扰我" means the night)
* 夜里, 夜间, 深夜, night, overnight, 睡觉时间, while I sleep -> 22:00-08:00
* an open range "after X" -> X-22:00 as contact hours (X-23:00 when X is 22:00 or later),
  X-08:00 as quiet hours; "before X" -> 09:00-X as contact hours, 22:00-X (00:00-X when X is
  in the afternoon) as quiet hours
* a bare hour without am/pm is read the way people say it: "9-5" and "9点到6点" are
  09:00-17:00 and 09:00-18:00; as quiet hours "10点到8点" and "10点以后" both mean
  22:00-08:00; as contact hours "5点以后" starts at 17:00
"""

from __future__ import annotations

from governed_memory.memory.write.normalize._text import (
    Mention,
    fold,
    fold_char,
    normalize_whitespace,
    zh_number,
)
from governed_memory.memory.write.normalize.channels import (
    CHANNELS,
    find_channels,
    normalize_channel,
)
from governed_memory.memory.write.normalize.hours import normalize_hours, normalize_quiet_hours
from governed_memory.memory.write.normalize.languages import find_languages, normalize_language
from governed_memory.memory.write.normalize.structured import normalize_structured_value
from governed_memory.memory.write.normalize.timezones import find_timezone, normalize_timezone

__all__ = [
    "CHANNELS",
    "Mention",
    "find_channels",
    "find_languages",
    "find_timezone",
    "fold",
    "fold_char",
    "normalize_channel",
    "normalize_hours",
    "normalize_language",
    "normalize_quiet_hours",
    "normalize_structured_value",
    "normalize_timezone",
    "normalize_whitespace",
    "zh_number",
]
