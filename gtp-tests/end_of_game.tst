# The end of the game (RULES.md §3-5, issue 5): the arbiter's lists and count, cleanup and
# passing, on the arbiter notes' hand-verified positions T01-T18 (komi 0, Black to move
# after both passed). Each position is set up by plays that capture nothing.

# T01: a clean split, then komi changes after the game (chinese)
boardsize 7
clear_board
komi 0
kgs-rules chinese
play w A5
play w B5
play w C5
play w D5
play w E5
play w F5
play w G5
play b A4
play b B4
play b C4
play b D4
play b E4
play b F4
play b G4
play b pass
play w pass

10 final_score
#? [B\+7]

11 final_status_list dead
#? []

12 final_status_list black_territory
#? [A1 A2 A3 B1 B2 B3 C1 C2 C3 D1 D2 D3 E1 E2 E3 F1 F2 F3 G1 G2 G3]

komi 7.5
13 final_score
#? [W\+0\.5]

14 genmove b
#? [PASS]

# T02: a dead White stone inside Black's area (chinese)
boardsize 7
clear_board
komi 0
kgs-rules chinese
play w A5
play w B5
play w C5
play w D5
play w E5
play w F5
play w G5
play b A4
play b B4
play b C4
play b D4
play b E4
play b F4
play b G4
play w C2
play b pass
play w pass

20 final_status_list dead
#? [C2]

21 final_score
#? [B\+7]

22 final_status_list dame
#? []

26 yeoul-gfx_final_status
#? [BLACK A1 A2 A3 B1 B2 B3 C1 C2 C3 D1[^\n]*\nWHITE A6 A7[^\n]*\nMARK C2\nTEXT B\+7]

23 kgs-genmove_cleanup b
#? [B2|C1|C3|D2]

24 kgs-genmove_cleanup w
#? [.+]

25 kgs-genmove_cleanup b
#? [!PASS]

# T02 again: cleanup captures the dead stone, whatever White does, then the count is the same.
boardsize 7
clear_board
komi 0
kgs-rules chinese
play w A5
play w B5
play w C5
play w D5
play w E5
play w F5
play w G5
play b A4
play b B4
play b C4
play b D4
play b E4
play b F4
play b G4
play w C2
play b pass
play w pass

120 kgs-genmove_cleanup b
#? [!PASS]

play w pass

121 kgs-genmove_cleanup b
#? [!PASS]

play w pass

122 kgs-genmove_cleanup b
#? [!PASS]

play w pass

123 kgs-genmove_cleanup b
#? [!PASS]

play w pass

124 final_status_list dead
#? []

125 final_score
#? [B\+7]

126 final_status_list white_territory
#? [A6 A7 B6 B7 C6 C7 D6 D7 E6 E7 F6 F7 G6 G7]

# T02 under Japanese rules: the dead stone is a prisoner (japanese)
boardsize 7
clear_board
komi 0
kgs-rules japanese
play w A5
play w B5
play w C5
play w D5
play w E5
play w F5
play w G5
play b A4
play b B4
play b C4
play b D4
play b E4
play b F4
play b G4
play w C2
play b pass
play w pass

30 final_score
#? [B\+8]

31 genmove b
#? [PASS]

# T03: one dame point is worth a point under area rules (chinese)
boardsize 7
clear_board
komi 0
kgs-rules chinese
play w A5
play w B5
play w C5
play w D5
play w E5
play w F5
play w G5
play b A4
play b B4
play b C4
play w E4
play w F4
play w G4
play b C3
play b D3
play b E3
play b F3
play b G3
play b pass
play w pass

40 final_score
#? [0]

41 genmove b
#? [D4]

# T11: a pyramid four with its vital point empty (chinese)
boardsize 5
clear_board
komi 0
kgs-rules chinese
play b A4
play b B4
play b C4
play b D4
play b E4
play b A3
play w B3
play w C3
play w D3
play b E3
play w A2
play w B2
play w D2
play w E2
play w A1
play w E1
play b pass
play w pass

50 final_status_list dead
#? [A1 A2 B2 B3 C3 D2 D3 E1 E2]

undo
51 genmove w
#? [C1]

# T12: the empty L in the corner (japanese)
boardsize 5
clear_board
komi 0
kgs-rules japanese
play b A4
play b B4
play b C4
play b D4
play w A3
play w B3
play b C3
play b D3
play b E3
play w B2
play w C2
play w D2
play b E2
play w D1
play b E1
play b pass
play w pass

60 final_score
#? [B\+22]

undo
# B1 or A1 both leave two eyes (A1-A2 and C1, or A2 and B1-C1).
61 genmove w
#? [B1|A1]

# T15: a seki without eyes (chinese)
boardsize 7
clear_board
komi 0
kgs-rules chinese
play w B7
play w D7
play b E7
play w A6
play w B6
play w C6
play w D6
play b E6
play b F6
play b G6
play w A5
play w D5
play b E5
play w A4
play w B4
play w C4
play b D4
play b E4
play b F4
play b G4
play w A3
play b B3
play b C3
play w D3
play b E3
play w A2
play b B2
play w D2
play b E2
play w A1
play b B1
play w D1
play b E1
play b pass
play w pass

70 final_status_list seki
#? [B1 B2 B3 C3\s+D1 D2 D3]

71 final_status_list dead
#? []

72 final_score
#? [B\+5]

73 genmove b
#? [PASS]

# T16: a seki with one eye each, under Japanese rules (japanese)
boardsize 7
clear_board
komi 0
kgs-rules japanese
play w B7
play w D7
play b E7
play w A6
play w B6
play w C6
play w D6
play b E6
play b F6
play b G6
play w A5
play w D5
play b E5
play w A4
play w B4
play w C4
play b D4
play b E4
play b F4
play b G4
play w A3
play w B3
play w C3
play b D3
play b E3
play b F3
play b G3
play b A2
play b B2
play b C2
play w D2
play w E2
play w F2
play b G2
play b B1
play w D1
play w F1
play b G1
play b pass
play w pass

80 final_score
#? [0]

81 final_status_list seki
#? [A2 B1 B2 C2\s+D1 D2 E2 F1 F2]

82 final_status_list dame
#? [A1 C1 E1]

# T18: three shared liberties, one of them spare (chinese)
boardsize 7
clear_board
komi 0
kgs-rules chinese
play w B7
play w D7
play b E7
play w A6
play w B6
play w C6
play w D6
play b E6
play b F6
play b G6
play w A5
play w B5
play w C5
play b D5
play b E5
play w A4
play b B4
play b C4
play w D4
play b E4
play w A3
play b B3
play w D3
play b E3
play b F3
play b G3
play w A2
play b B2
play w D2
play b E2
play w A1
play b B1
play w D1
play b E1
play b pass
play w pass

90 final_score
#? [B\+8]

91 genmove b
#? [C1|C2|C3]

play w pass
92 genmove b
#? [PASS]

# A teire (Fuego's cleanup test 180, in small): White's D4 has two liberties, the dame
# D3 that Black can fill and D5 in White's area. Black passes; White connects at D5
# first (the same point now or after Black's D3), then passes (japanese).
boardsize 7
clear_board
komi 0
kgs-rules japanese
play w A5
play w B5
play w C5
play w E5
play w F5
play w G5
play b A4
play b B4
play b C4
play w D4
play b E4
play b F4
play b G4
play b A3
play b B3
play b C3
play b E3
play b F3
play b G3
play b D2
play b pass

100 genmove w
#? [D5]

play b D3
101 genmove w
#? [PASS]

102 final_score
#? [W\+1]

# The last moves by miai counting (issue 5, GNU Go's seki suite): with the rest of the
# board settled, two local games are left. Black's pair A9-B9 in atari is gote either way
# (four points under territory rules). In the corner White's B2 makes a seki in sente (it
# threatens a ko for the whole group), so Black's move there is reverse sente (three
# points, worth double a gote): Black takes the corner first, and White plays its sente
# move first. GNU Go 3.8 agrees (A2 for Black, B2 for White).
boardsize 9
clear_board
komi 0
kgs-rules japanese
play b A9
play b B9
play b D9
play b G9
play w A8
play w B8
play w C8
play b D8
play b E8
play b F8
play b G8
play b H8
play b J8
play w A7
play w B7
play w C7
play w D7
play w E7
play w F7
play w G7
play w H7
play w J7
play w A5
play w B5
play w C5
play w D5
play w E5
play w F5
play w G5
play w H5
play w J5
play b A4
play b B4
play w C4
play w D4
play b B3
play b C3
play w D3
play w E3
play b C2
play b D2
play w E2
play b D1
play w E1

110 genmove b
#? [A2|B1]

undo
111 genmove w
#? [B2|B1|A2]

# A capture owed under territory counting (issue 14): the final position of Go Seigen -
# Miyamoto Naoki 1968, game 1 (B+4 with the prisoners of the game; B+7 without them).
# White's D6 would leave Black's big chain in atari against the dead stones A1-D3, so
# Black must take them for real, A2 and A4, two points of its own territory (japanese)
boardsize 9
clear_board
komi 0
kgs-rules japanese
play b E9
play b F9
play b G9
play b J9
play b E8
play b G8
play b H8
play b J8
play b B7
play b F7
play b G7
play b H7
play b A6
play b B6
play b C6
play b E6
play b A5
play b C5
play b D5
play b E5
play b C4
play b D4
play b E4
play b F4
play b E3
play b C2
play b D2
play b E2
play b B1
play b C1
play b D1
play w A9
play w C9
play w D9
play w A8
play w B8
play w D8
play w A7
play w C7
play w D7
play w E7
play w J7
play w F6
play w G6
play w H6
play w J6
play w B5
play w F5
play w J5
play w B4
play w G4
play w H4
play w A3
play w B3
play w C3
play w D3
play w F3
play w J3
play w B2
play w F2
play w G2
play w H2
play w A1
play w E1
play w F1

127 final_score
#? [B\+7]

128 genmove b
#? [A2]

# A race of one eye against none (9x9 referee game 30 of 2026-12-04, yeoul easy against GNU Go
# level 1, Japanese rules): White's A9-A8 and B7-C9 share the eye B9-B8 and the liberties D9
# and D8 with Black's ten stones A7-F9, whose third liberty E6 White can fill. White wins the
# race whoever starts; the searches called it even and gave it to Black, to move (B+12.5).
boardsize 9
clear_board
komi 6.5
kgs-rules japanese
play b G7
play w C4
play b G3
play w E3
play b D7
play w E5
play b G5
play w F6
play b G6
play w F7
play b C6
play w G8
play b H8
play w F8
play b E8
play w H9
play b F2
play w H7
play b D2
play w E2
play b E1
play w C2
play b D3
play w D4
play b C3
play w B3
play b D1
play w B2
play b H6
play w J8
play b J6
play w C8
play b E9
play w B7
play b B6
play w C7
play b D6
play w B5
play b A6
play w A8
play b B9
play w C9
play b A7
play w A5
play b J7
play w H8
play b C1
play w B1
play b F1
play w H2
play b H3
play w H4
play b H5
play w J4
play b F4
play w J3
play b G4
play w E4
play b H1
play w G2
play b G1
play w F3
play b J2
play w H2
play b E7
play w F5
play b G2
play w C5
play b F9
play w D5
play b B8
play w A9
play b pass
play w pass

129 final_status_list dead
#? [A6 A7 B6 C6 D6 D7 E7 E8 E9 F9\nH4 J3 J4]

130 final_score
#? [W\+29.5]
