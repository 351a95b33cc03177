# Simple ko: an immediate recapture is illegal; after a move elsewhere it is legal.
boardsize 5
clear_board
play b B3
play b C2
play b C4
play w D2
play w D4
play w E3
play w C3
# Black takes the ko at D3.
play b D3

10 is_legal w C3
#? [0]

11 play w C3
#? [illegal move]

play w A1
play b A5

12 is_legal w C3
#? [1]
