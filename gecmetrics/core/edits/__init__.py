"""The edit machinery every edit metric shares, language-independent: what an edit is
(:mod:`.blocks`), ERRANT's and ChERRANT's comparison of edit sets (:mod:`.compare`,
:mod:`.cherrant`), and MaxMatch's edit lattice (:mod:`.lattice`) with the system edits it
chooses against gold edits (:mod:`.maxmatch`)."""
