# Captures, suicide and ko through is_legal and play.
boardsize 7
clear_board
play b C4
play b D5
play b E4
play w D4
play w D3
play w C3
play w E3

10 is_legal b D2
#? [1]

# A black stone at D6 is fine; White D4 is not captured yet.
play b D6
play b C2
play b E2
play b B3
play b F3

# Now the white chain D4 D3 C3 E3 has one liberty, D2: Black captures it.
20 play b D2
#? []

21 showboard
#? [.*captures black 4 white 0.*]

# A stone with no liberty that captures nothing is suicide.
play b A2
play b B1
22 is_legal w A1
#? [0]

23 play w A1
#? [illegal move]
