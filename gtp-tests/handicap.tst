# Fixed and free handicap.
boardsize 19
clear_board

1 fixed_handicap 9
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16 K10]

2 fixed_handicap 2
#? [board not empty]

clear_board
3 fixed_handicap 1
#? [invalid number of stones]

4 fixed_handicap 10
#? [invalid number of stones]

boardsize 9
5 fixed_handicap 5
#? [C3 G7 C7 G3 E5]

clear_board
6 set_free_handicap A1 A1
#? [bad vertex list]

7 set_free_handicap A1 pass
#? [bad vertex list]

8 set_free_handicap A1 J9
#? []

9 place_free_handicap 3
#? [board not empty]
