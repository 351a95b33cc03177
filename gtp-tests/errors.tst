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
