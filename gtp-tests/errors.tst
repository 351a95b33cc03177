# Malformed and illegal commands get the specification's error texts and change nothing.
boardsize 9
clear_board
play b E5

10 play b E5
#? [illegal move]

11 play b I5
#? [syntax error]

12 play b K1
#? [syntax error]

13 play red A1
#? [syntax error]

14 play b
#? [syntax error]

15 boardsize 0
#? [unacceptable size]

16 boardsize 99
#? [unacceptable size]

17 boardsize abc
#? [syntax error]

18 komi abc
#? [syntax error]

19 is_legal w E5
#? [0]

20 is_legal w E6
#? [1]

21 undo
#? []

22 undo
#? [cannot undo]

# A calibration change to the level's row: a refused one changes nothing, the others
# included.
30 yeoul-level_set reads=16
#? [reads=16]

31 yeoul-level_set notices=0.1 sees-as=-8
#? [unknown key "sees-as": the keys are share-of-kyu .*impression-share .*]

32 yeoul-level_set
#? [reads=16]

33 yeoul-level_set reads=0
#? [reads takes a count from 1 to 361, not "0"; the keys are share-of-kyu .*]

34 yeoul-level_set
#? [reads=16]
