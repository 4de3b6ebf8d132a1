"""English stop words: the words of a text that carry no meaning of their own.

``followed`` leaves them out of the runs of words it traces; ``plain_text`` and ``plain_decode``
count them to tell English from a rot13 fragment and to cut joined letters into words.
Pure: no imports.
"""

__all__ = ["STOP_WORDS"]

# The Glasgow Information Retrieval Group's English stop words, as shipped by scikit-learn 1.9.1
# (sklearn/feature_extraction/_stop_words.py, BSD-3-Clause): 318 words.
_STOP_WORDS_TEXT = """a about above across after afterwards again against all almost alone along already also
    although always am among amongst amoungst amount an and another any anyhow anyone anything
    anyway anywhere are around as at back be became because become becomes becoming been before
    beforehand behind being below beside besides between beyond bill both bottom but by call can
    cannot cant co con could couldnt cry de describe detail do done down due during each eg eight
    either eleven else elsewhere empty enough etc even ever every everyone everything everywhere
    except few fifteen fifty fill find fire first five for former formerly forty found four from
    front full further get give go had has hasnt have he hence her here hereafter hereby herein
    hereupon hers herself him himself his how however hundred i ie if in inc indeed interest into
    is it its itself keep last latter latterly least less ltd made many may me meanwhile might
    mill mine more moreover most mostly move much must my myself name namely neither never
    nevertheless next nine no nobody none noone nor not nothing now nowhere of off often on once
    one only onto or other others otherwise our ours ourselves out over own part per perhaps
    please put rather re same see seem seemed seeming seems serious several she should show side
    since sincere six sixty so some somehow someone something sometime sometimes somewhere still
    such system take ten than that the their them themselves then thence there thereafter thereby
    therefore therein thereupon these they thick thin third this those though three through
    throughout thru thus to together too top toward towards twelve twenty two un under until up
    upon us very via was we well were what whatever when whence whenever where whereafter whereas
    whereby wherein whereupon wherever whether which while whither who whoever whole whom whose
    why will with within without would yet you your yours yourself yourselves"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())
