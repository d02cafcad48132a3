S 我 喜 欢 猫 。
T0-A0 我 很 喜 欢 猫 。
A 1 1|||M|||很|||REQUIRED|||-NONE-|||0

S 他 们 去 了 学 校 。
T0-A0 他 去 了 学 校 。
A 1 2|||R|||-NONE-|||REQUIRED|||-NONE-|||0
T1-A0 他 们 去 学 校 了 。
A 3 6|||W|||学 校 了|||REQUIRED|||-NONE-|||1

S 我 花 了 才 7 个 小 时 。
T0-A0 我 才 花 了 7 个 小 时 。
A 1 4|||W|||才 花 了|||REQUIRED|||-NONE-|||0

S 今 天 天 气 很 好 。
T0 没有错误
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
T1 没有错误
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1
T2 无法标注
A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||2

S 我 们 刚 到 公 园 就 被 天 下 雨 了 。
T0-A0 我 们 刚 到 公 园 天 就 下 雨 了 。
A 6 8|||R|||-NONE-|||REQUIRED|||-NONE-|||0
A 9 9|||M|||就|||REQUIRED|||-NONE-|||0
T0-A1 我 们 刚 到 公 园 天 就 下 雨 了 。
A 6 6|||M|||天|||REQUIRED|||-NONE-|||0
A 7 9|||R|||-NONE-|||REQUIRED|||-NONE-|||0

S 这 个 [缺失成分] 很 好 。
T0-A0 这 个 东 西 很 好 。
A 2 3|||S|||东 西|||REQUIRED|||-NONE-|||0
T1-A0 这 个 [缺失成分] 非 常 好 。
A 3 4|||S|||非 常|||REQUIRED|||-NONE-|||1

S 我 要 決 定 。
T0-A0 我 要 決 定 將 來 的 路 。
A 4 4|||M|||將 來 的 路|||REQUIRED|||-NONE-|||0

S 我 喜 欢 猫
T0-A0 我 很 喜 欢 猫 。
A 1 1|||M|||很|||REQUIRED|||-NONE-|||0
A 4 4|||M|||。|||REQUIRED|||-NONE-|||0

S I l i k e 猫 !
T0-A0 I l i k e c a t s 。
A 5 7|||S|||c a t s 。|||REQUIRED|||-NONE-|||0

S 我 。
T0-A0 我 今 天 非 常 非 常 非 常 高 兴 地 去 了 学 校 。
A 1 1|||M|||今 天 非 常 非 常 非 常 高 兴 地 去 了 学 校|||REQUIRED|||-NONE-|||0

S 我 在 也 不 去 了 。
T0-A0 我 再 也 不 去 了 。
A 1 2|||S|||再|||REQUIRED|||-NONE-|||0

S 什 么 是 我 的 梦 想 呢 ？
T0-A0 我 的 梦 想 是 什 么 呢 ？
A 0 7|||W|||我 的 梦 想 是 什 么|||REQUIRED|||-NONE-|||0

S 而 且 它 再 不 能 作 售 品 卖 了 。
T0-A0 而 且 它 不 能 再 当 作 售 品 卖 了 。
A 3 6|||W|||不 能 再|||REQUIRED|||-NONE-|||0
A 6 6|||M|||当|||REQUIRED|||-NONE-|||0
T0-A1 而 且 它 不 能 再 当 作 售 品 卖 了 。
A 3 4|||R|||-NONE-|||REQUIRED|||-NONE-|||0
A 6 6|||M|||再 当|||REQUIRED|||-NONE-|||0
T1-A0 而 且 它 再 也 不 能 作 为 售 品 卖 了 。
A 4 4|||M|||也|||REQUIRED|||-NONE-|||1
A 7 7|||M|||为|||REQUIRED|||-NONE-|||1

S 我 从 个 个 的 经 验 来 谈 这 个 题 目 。
T0-A0 我 根 据 个 人 的 经 验 来 谈 这 个 题 目 。
A 1 2|||S|||根 据|||REQUIRED|||-NONE-|||0
A 3 4|||S|||人|||REQUIRED|||-NONE-|||0
T0-A1 我 根 据 个 人 的 经 验 来 谈 这 个 题 目 。
A 1 3|||S|||根 据|||REQUIRED|||-NONE-|||0
A 4 4|||M|||人|||REQUIRED|||-NONE-|||0

S a b
T0-A0 b a
A 0 2|||W|||b a|||REQUIRED|||-NONE-|||0
T1-A0 a b a b
A 0 0|||M|||a b|||REQUIRED|||-NONE-|||1
T2-A0 b
A 0 1|||R|||-NONE-|||REQUIRED|||-NONE-|||2

