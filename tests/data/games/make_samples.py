"""Writes sample.ggf and sample.txt: the six games of sample.wtb in GGF and as transcripts.

An Othello replay of its own (independent of osolve) finds the passes, which both formats may
write. Run in this directory: python3 make_samples.py
"""
import struct

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
START = "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *"


def flipped(board, row, col, player):
    if board[row][col]:
        return []
    other, found = 3 - player, []
    for dr, dc in DIRECTIONS:
        r, c, line = row + dr, col + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r][c] == other:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r][c] == player:
            found += line
    return found


def can_move(board, player):
    return any(flipped(board, r, c, player) for r in range(8) for c in range(8))


def replay(moves):
    """The player of each move (1 black, 2 white), the indices of moves preceded by a pass,
    and the final board."""
    board = [[0] * 8 for _ in range(8)]
    board[3][3] = board[4][4] = 2
    board[3][4] = board[4][3] = 1
    player, players, passes = 1, [], []
    for i, (row, col) in enumerate(moves):
        if not can_move(board, player):
            passes.append(i)
            player = 3 - player
        flips = flipped(board, row, col, player)
        assert flips, f"move {i + 1} is illegal"
        board[row][col] = player
        for r, c in flips:
            board[r][c] = player
        players.append(player)
        player = 3 - player
    return players, passes, board


def name(names, index):
    raw = names[16 + 20 * index: 36 + 20 * index].split(b"\0")[0]
    return raw.decode("latin-1").rstrip()


def main():
    data = open("sample.wtb", "rb").read()
    names = open("WTHOR.JOU", "rb").read()
    count = struct.unpack("<I", data[4:8])[0]
    ggf, lines = [], []
    for g in range(count):
        record = data[16 + 68 * g: 84 + 68 * g]
        moves = []
        for byte in record[8:]:
            if byte == 0:
                break
            moves.append((byte // 10 - 1, byte % 10 - 1))
        players, passes, board = replay(moves)
        black = sum(v == 1 for row in board for v in row)
        white = sum(v == 2 for row in board for v in row)
        empty = 64 - black - white
        diff = black - white + (empty if black > white else -empty if white > black else 0)
        black_name = name(names, struct.unpack("<H", record[2:4])[0])
        white_name = name(names, struct.unpack("<H", record[4:6])[0])
        tags = (f"GM[Othello]PC[WThor sample]DT[2021]PB[{black_name}]PW[{white_name}]"
                f"RE[{diff:+d}.000]TI[00:30:00//00:02:00]TY[8]BO[{START}]")
        steps, tokens = [], []
        for i, (row, col) in enumerate(moves):
            color = "B" if players[i] == 1 else "W"
            if i in passes:
                steps.append(("W" if color == "B" else "B") + "[PA]")
                tokens.append("pa")
            square = "abcdefgh"[col] + str(row + 1)
            text = square.upper() if g == 1 else square
            if g in (0, 3) and i % 7 == 0:
                text += f"/{i % 5 - 2}.00/{i * 0.37:.2f}"
            elif g == 2:
                text += "//1.5"
            steps.append(f"{color}[{text}]")
            tokens.append(square)
        ggf.append("(;" + tags + "".join(steps) + ";)")
        plain = "".join(t for t in tokens if t != "pa")
        lines.append([plain,
                      " ".join(t.upper() for t in tokens if t != "pa"),
                      "".join(tokens),
                      ",".join(tokens) + "   # a game with a comma list",
                      " ".join(tokens),
                      plain][g])
    with open("sample.ggf", "w") as out:
        out.write(ggf[0] + "\n" + ggf[1] + " " + ggf[2] + "\n" + ggf[3][:200] + "\n"
                  + ggf[3][200:] + "\n\n" + ggf[4] + "\n" + ggf[5] + "\n")
    with open("sample.txt", "w") as out:
        out.write("# The six games of sample.wtb as move transcripts (see README.md)\n"
                  + "\n".join(lines[:3]) + "\n\n% passes written out, in other spellings\n"
                  + "\n".join(lines[3:]) + "\n")


if __name__ == "__main__":
    main()
