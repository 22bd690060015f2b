/*
 * Korean search, the query side. searchtools.js stems every query word with
 * `new Stemmer().stemWord(word)`; this Stemmer returns the term the Korean index holds for it:
 * the word without the particles and endings written onto it (함수를 -> 함수, jit은 -> jit), an
 * English word stemmed by Sphinx's snowball stemmer. It does what SearchKorean.stem does in
 * learnjax_site/korean_search.py, which builds the index and owns the rules (its docstring says
 * why they are what they are); tests/test_korean_search.py runs both on the same words.
 *
 * korean_search.js_stemmer_code() puts this file into language_data.js after what it needs:
 * KOREAN_SEARCH_RULES ([ending, after, min_left], longest ending first), Sphinx's EnglishStemmer,
 * and `stopwords` (defined by language_data.js itself).
 */
var KoreanStemmer = function () {
  "use strict";
  var FIRST_SYLLABLE = 0xac00;
  var LAST_SYLLABLE = 0xd7a3;
  var RIEUL = 8; // ㄹ's index among the final consonants
  var HANGUL = /[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]/;
  var LETTER = /[a-z\uac00-\ud7a3]/;
  var rules = KOREAN_SEARCH_RULES;
  var english = new EnglishStemmer();

  var agrees = function (syllable, after) {
    var final = (syllable.charCodeAt(0) - FIRST_SYLLABLE) % 28;
    switch (after) {
      case "any": return true;
      case "vowel": return final === 0;
      case "consonant": return final !== 0;
      case "vowel-or-l": return final === 0 || final === RIEUL;
      case "consonant-not-l": return final !== 0 && final !== RIEUL;
      default: throw new Error("korean_stemmer.js: unknown kind of rule: " + after);
    }
  };

  var strippable = function (rest, rule) {
    var last = rest.charAt(rest.length - 1);
    var code = last.charCodeAt(0);
    if (code >= FIRST_SYLLABLE && code <= LAST_SYLLABLE) {
      return rest.length >= rule[2] && agrees(last, rule[1]);
    }
    return LETTER.test(rest); // jit은, XLA가; but 1로 stays whole
  };

  /* The lowercase word without the endings the rules strip, outermost first. */
  this.stripEndings = function (word) {
    var stripped = true;
    while (stripped) {
      stripped = false;
      for (var i = 0; i < rules.length; i++) {
        var ending = rules[i][0];
        if (word.length > ending.length && word.endsWith(ending)) {
          var rest = word.slice(0, word.length - ending.length);
          if (strippable(rest, rules[i])) {
            word = rest;
            stripped = true;
            break;
          }
        }
      }
    }
    return word;
  };

  this.stemWord = function (word) {
    word = word.normalize("NFC").toLowerCase();
    if (stopwords.has(word)) return word;
    var stem = this.stripEndings(word);
    if (!HANGUL.test(stem)) stem = english.stemWord(stem);
    return stopwords.has(stem) ? word : stem;
  };
};

var Stemmer = KoreanStemmer;
