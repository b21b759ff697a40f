T = {
"A complete dog": ("Un perro completo", "Một con chó đã đủ", "一隻填滿咗嘅狗"),
"A die in the tray matches a space on your dog. Tap the die, then the dog that lights up (or drag the die onto it).":
 ("Un dado de la bandeja coincide con un espacio de tu perro. Toca el dado y luego el perro que se ilumina (o arrastra el dado hasta él).",
  "Một xúc xắc trong khay khớp với một khoảng trống trên con chó của bạn. Chạm vào xúc xắc, rồi chạm con chó đang sáng lên (hoặc kéo xúc xắc thả vào nó).",
  "托盤入面有粒骰啱你隻狗嘅空格。撳一下粒骰，再撳亮起嗰隻狗（或者將粒骰拖過去）。"),
"A die that does not fit (or that you do not want to place) is buried in your yard. Watch the yard's total: over 7 and you bust.":
 ("Un dado que no encaja (o que no quieres colocar) se entierra en tu patio. Vigila el total del patio: si pasa de 7, te pasas.",
  "Xúc xắc không khớp (hoặc bạn không muốn đặt) thì chôn vào sân của bạn. Để ý tổng của sân: quá 7 là bạn phá sản.",
  "唔啱放（或者你唔想放）嘅骰就埋落你個 yard。留意 yard 總數：超過 7 就爆。"),
"A guided first game against a friendly bot: short tips show up as things happen.":
 ("Una primera partida guiada contra un bot amable: aparecen consejos breves a medida que pasan las cosas.",
  "Một ván đầu có hướng dẫn với một bot thân thiện: các mẹo ngắn hiện ra khi mọi việc diễn ra.",
  "同一個友善嘅機械人玩一局有導覽嘅第一局：有事發生就會彈出簡短提示。"),
"A {v} cannot go there.": ("Un {v} no puede ir ahí.", "Xúc xắc {v} không đặt vào đó được.", "{v} 唔可以放喺嗰度。"),
"Advisor: {move}": ("Consejero: {move}", "Cố vấn: {move}", "顧問：{move}"),
"Advisor: {move} ({odds} chance to bust at once)": ("Consejero: {move} ({odds} de probabilidad de pasarte enseguida)",
  "Cố vấn: {move} (khả năng phá sản ngay: {odds})", "顧問：{move}（即刻爆嘅機會：{odds}）"),
"Biscuit the bot": ("Galleta, el bot", "Bot Bánh Quy", "曲奇機械人"),
"Burying": ("Enterrar", "Chôn", "埋骰"),
"Bust!": ("¡Te pasaste!", "Phá sản!", "爆咗！"),
"Busting": ("Pasarse", "Phá sản", "爆"),
"Close": ("Cerrar", "Đóng", "關閉"),
"Do a trick: pick a face-up tile, take any treats lying on it, turn it face down, and do what it says. Or, if a dog of yours is complete, score instead.":
 ("Haz un truco: elige una loseta boca arriba, toma las golosinas que haya encima, ponla boca abajo y haz lo que dice. O, si tienes un perro completo, puntúa en su lugar.",
  "Làm một mánh khóe: chọn một thẻ đang ngửa, lấy xương chó nằm trên đó, úp thẻ xuống và làm theo thẻ. Hoặc, nếu có con chó đã đủ, hãy ghi điểm thay vào đó.",
  "做一個 trick：揀一塊反開咗嘅 tile，攞走上面嘅 treat，將佢反轉，然後照住做。或者，如果你有隻狗填滿咗，就改為收狗。"),
"Do this trick": ("Hacer este truco", "Làm mánh khóe này", "做呢個 trick"),
"Dogs have spots, dice have spots. Roll dice, put each on a space of your dog cards showing the same pips, and bury what does not fit in your yard. The first player to score 6 dogs wins.":
 ("Los perros tienen manchas y los dados también. Lanza dados, pon cada uno en un espacio de tus cartas de perro con los mismos puntos y entierra en tu patio lo que no encaje. Gana quien primero puntúe 6 perros.",
  "Chó có đốm, xúc xắc cũng có chấm. Lăn xúc xắc, đặt mỗi con vào khoảng trống có cùng số chấm trên thẻ chó của bạn, và chôn vào sân những con không khớp. Người đầu tiên ghi điểm 6 con chó sẽ thắng.",
  "狗有斑點，骰都有點。擲骰，將每粒骰放喺你狗卡上點數一樣嘅空格，唔啱放嘅就埋落 yard。最先收到 6 隻狗嘅玩家贏。"),
"Don't like this roll? Spend a treat (a bone) to reroll all its dice, before you place or bury any of them.":
 ("¿No te gusta esta lanzada? Gasta una golosina (un hueso) para volver a lanzar todos sus dados, antes de colocar o enterrar ninguno.",
  "Không thích lần lăn này? Dùng một xương chó để lăn lại tất cả xúc xắc của lần lăn, trước khi đặt hay chôn con nào.",
  "唔鍾意呢鋪擲出嚟嘅？用一份 treat（一條骨頭）重擲成鋪骰，但要喺放或者埋任何一粒之前。"),
"Each turn starts with a trick tile: tap one to read it, then do it. A used tile turns grey until the reset. Walk and Run roll dice; Beg gives treats.":
 ("Cada turno empieza con una loseta de truco: toca una para leerla y luego hazla. Una loseta usada se vuelve gris hasta el reinicio. Pasear y Correr lanzan dados; Pedir da golosinas.",
  "Mỗi lượt bắt đầu bằng một thẻ mánh khóe: chạm vào để đọc, rồi làm theo. Thẻ đã dùng chuyển xám cho đến lần đặt lại. Đi dạo (Walk) và Chạy (Run) lăn xúc xắc; Xin ăn (Beg) cho xương chó.",
  "每個回合由一塊 trick tile 開始：撳一下睇內容，然後做。用過嘅 tile 會變灰色，直到重置。散步 (Walk) 同 跑 (Run) 擲骰；討食 (Beg) 畀 treat。"),
"Every die you roll goes on an empty space of one of your dogs with the same number, or into your yard. Burying is always allowed. Dice on dogs stay there between turns.":
 ("Cada dado que lanzas va a un espacio vacío con el mismo número en uno de tus perros, o a tu patio. Enterrar siempre está permitido. Los dados en los perros se quedan de un turno a otro.",
  "Mỗi xúc xắc bạn lăn được đặt vào một khoảng trống cùng số trên một con chó của bạn, hoặc chôn vào sân. Luôn được phép chôn. Xúc xắc trên chó ở lại qua các lượt.",
  "你擲出嘅每粒骰，都要放喺你其中一隻狗點數一樣嘅空格，或者埋落 yard。幾時都可以埋。狗身上嘅骰會一直留到下個回合。"),
"Every unscored dog of yours was full after the roll, so they scored at once, and your turn goes on.":
 ("Todos tus perros sin puntuar quedaron completos tras la lanzada, así que puntuaron enseguida y tu turno sigue.",
  "Sau lần lăn, mọi con chó chưa ghi điểm của bạn đều đã đủ, nên chúng được ghi điểm ngay và lượt của bạn tiếp tục.",
  "擲完之後你所有未收嘅狗都填滿咗，所以即刻收晒，你個回合繼續。"),
"Fast and risky": ("Rápido y arriesgado", "Nhanh và mạo hiểm", "即時收"),
"Got it": ("Entendido", "Đã hiểu", "明白"),
"How to play Spots": ("Cómo se juega a Spots", "Cách chơi Spots", "Spots 點樣玩"),
"If your yard adds up to more than 7, you bust: every die on your unscored dogs and in your yard goes back to the supply, and your turn ends. Scored dogs are safe.":
 ("Si tu patio suma más de 7, te pasas: todos los dados de tus perros sin puntuar y de tu patio vuelven a la reserva, y tu turno termina. Los perros puntuados están a salvo.",
  "Nếu tổng sân của bạn vượt quá 7, bạn phá sản: mọi xúc xắc trên những con chó chưa ghi điểm và trong sân trở về chồng chung, và lượt của bạn kết thúc. Chó đã ghi điểm thì an toàn.",
  "如果你個 yard 加埋超過 7，你就爆：未收嘅狗身上同 yard 入面所有骰都返去公共儲備，你個回合完結。收咗嘅狗唔受影響。"),
"It can: {moves}": ("Puede: {moves}", "Có thể: {moves}", "可以：{moves}"),
"Learn to play": ("Aprender a jugar", "Học cách chơi", "學玩"),
"Learner": ("Aprendiz", "Người học", "新手"),
"Leave the tutorial": ("Salir del tutorial", "Rời phần hướng dẫn", "離開教學"),
"New to Spots?": ("¿Nuevo en Spots?", "Mới chơi Spots?", "第一次玩 Spots？"),
"Only one tile was left face up: it got a treat, and every tile turned face up again. Whoever picks that tile takes the treat.":
 ("Solo quedaba una loseta boca arriba: recibió una golosina y todas las losetas volvieron boca arriba. Quien elija esa loseta se lleva la golosina.",
  "Chỉ còn một thẻ ngửa: nó được đặt một xương chó, và mọi thẻ lại được lật ngửa. Ai chọn thẻ đó sẽ lấy xương chó.",
  "得返一塊 tile 反開：佢攞到一份 treat，然後全部 tile 再反返開。邊個揀嗰塊 tile 就攞埋份 treat。"),
"Placing": ("Colocar", "Đặt xúc xắc", "放骰"),
"Placing and burying": ("Colocar y enterrar", "Đặt và chôn", "放骰同埋骰"),
"Roll tray": ("Bandeja para lanzar", "Khay lăn", "擲骰托盤"),
"Rules": ("Reglas", "Luật chơi", "規則"),
"Score now: your complete dogs turn over, safe from busts for good, and you draw new dogs. Scoring ends your turn.":
 ("Puntúa ahora: tus perros completos se dan la vuelta, a salvo para siempre de pasarte, y robas perros nuevos. Puntuar termina tu turno.",
  "Ghi điểm ngay: những con chó đã đủ được lật lại, mãi an toàn trước phá sản, và bạn rút thêm chó mới. Ghi điểm kết thúc lượt của bạn.",
  "即刻收狗：你填滿咗嘅狗會反轉，以後爆都唔怕，仲會抽新狗。收狗會結束你個回合。"),
"Scored!": ("¡Puntuado!", "Đã ghi điểm!", "收咗！"),
"Scoring": ("Puntuar", "Ghi điểm", "收狗"),
"Setup": ("Preparación", "Chuẩn bị", "準備"),
"Six trick tiles lie face up: Howl and Roll Over, plus one of each colour. Each player gets 2 dogs, 1 treat, and 1 die rolled and buried in their yard. The highest buried die goes first.":
 ("Seis losetas de truco boca arriba: Aullar y Rodar, más una de cada color. Cada jugador recibe 2 perros, 1 golosina y 1 dado que lanza y entierra en su patio. Empieza el dado enterrado más alto.",
  "Sáu thẻ mánh khóe nằm ngửa: Tru (Howl) và Lăn tròn (Roll Over), cùng một thẻ mỗi màu. Mỗi người nhận 2 con chó, 1 xương chó và 1 xúc xắc lăn rồi chôn vào sân. Ai có xúc xắc chôn cao nhất đi trước.",
  "六塊 trick tile 反開擺好：嚎叫 (Howl) 同 翻滾 (Roll Over)，再加每種顏色一塊。每個玩家攞 2 隻狗、1 份 treat，同 1 粒骰擲完埋落 yard。埋得最大嗰個先行。"),
"Slow and steady": ("Lenta y segura", "Chậm mà chắc", "慢慢收"),
"Slow and steady: at the start of your turn, score all your complete dogs instead of doing a trick. Fast and risky: when every unscored dog of yours is complete after a roll, they score at once and your turn goes on. Scored dogs turn over, and you draw new ones.":
 ("Lenta y segura: al empezar tu turno, puntúa todos tus perros completos en vez de hacer un truco. Rápido y arriesgado: cuando tras una lanzada todos tus perros sin puntuar están completos, puntúan enseguida y tu turno sigue. Los perros puntuados se dan la vuelta y robas otros nuevos.",
  "Chậm mà chắc: đầu lượt, ghi điểm mọi con chó đã đủ thay vì làm mánh khóe. Nhanh và mạo hiểm: khi sau một lần lăn mọi con chó chưa ghi điểm của bạn đều đã đủ, chúng được ghi điểm ngay và lượt tiếp tục. Chó đã ghi điểm được lật lại và bạn rút chó mới.",
  "慢慢收：回合開始時，唔做 trick，改為收晒所有填滿咗嘅狗。即時收：擲完一鋪之後，如果你所有未收嘅狗都填滿咗，就即刻收晒，回合繼續。收咗嘅狗會反轉，你再抽新狗。"),
"Tap a die, then a lit dog or your yard. Or drag it there.": ("Toca un dado y luego un perro iluminado o tu patio. O arrástralo hasta allí.",
  "Chạm một xúc xắc, rồi chạm con chó đang sáng hoặc sân của bạn. Hoặc kéo nó đến đó.", "撳一粒骰，再撳亮起嘅狗或者你個 yard。或者直接拖過去。"),
"That's Spots!": ("¡Eso es Spots!", "Spots là vậy đó!", "呢個就係 Spots！"),
"The 22 trick tiles": ("Las 22 losetas de truco", "22 thẻ mánh khóe", "22 塊 trick tile"),
"The first game uses Howl, Roll Over, Walk, Run, Beg and Fetch.": ("La primera partida usa Aullar, Rodar, Pasear, Correr, Pedir y Traer.",
  "Ván đầu tiên dùng Tru (Howl), Lăn tròn (Roll Over), Đi dạo (Walk), Chạy (Run), Xin ăn (Beg) và Tha về (Fetch).",
  "第一局用 嚎叫 (Howl)、翻滾 (Roll Over)、散步 (Walk)、跑 (Run)、討食 (Beg) 同 執波 (Fetch)。"),
"The tile reset": ("El reinicio de las losetas", "Đặt lại các thẻ", "tile 重置"),
"Treats and rerolls": ("Golosinas y volver a lanzar", "Xương chó và lăn lại", "treat 同重擲"),
"Treats are bones. Spend one to reroll all the dice of your latest roll, before you place or bury any of them.":
 ("Las golosinas son huesos. Gasta una para volver a lanzar todos los dados de tu última lanzada, antes de colocar o enterrar ninguno.",
  "Xương chó là những khúc xương. Dùng một cái để lăn lại tất cả xúc xắc của lần lăn gần nhất, trước khi đặt hay chôn con nào.",
  "treat 係骨頭。用一份就可以重擲你最近嗰鋪嘅所有骰，但要喺放或者埋任何一粒之前。"),
"Tutorial off: this is now a normal game. Play on, or go back to the lobby.": ("Tutorial desactivado: ahora es una partida normal. Sigue jugando o vuelve al vestíbulo.",
  "Đã tắt hướng dẫn: giờ đây là một ván bình thường. Chơi tiếp, hoặc quay lại sảnh.", "教學已關：而家係一局普通遊戲。繼續玩，或者返大堂。"),
"Welcome to Spots!": ("¡Bienvenido a Spots!", "Chào mừng đến với Spots!", "歡迎嚟玩 Spots！"),
"When a turn starts with only one tile face up, a treat is put on it and every tile turns face up again.":
 ("Cuando un turno empieza con una sola loseta boca arriba, se pone una golosina encima y todas las losetas vuelven boca arriba.",
  "Khi một lượt bắt đầu mà chỉ còn một thẻ ngửa, đặt một xương chó lên thẻ đó và lật ngửa lại mọi thẻ.",
  "如果回合開始時得返一塊 tile 反開，就放一份 treat 喺上面，然後全部 tile 再反返開。"),
"You know the whole game now. Start a table from the lobby, or read the rules and all 22 tiles.":
 ("Ya conoces todo el juego. Abre una mesa desde el vestíbulo o lee las reglas y las 22 losetas.",
  "Giờ bạn đã biết cả trò chơi. Mở một bàn từ sảnh, hoặc đọc luật và cả 22 thẻ.", "你而家識晒成個遊戲。喺大堂開一張枱，或者睇吓規則同全部 22 塊 tile。"),
"You play against {bot}. Dogs have spots, dice have spots: a die goes on a dog's space showing the same pips. Fill a dog to score it; the first to score {n} dogs wins.":
 ("Juegas contra {bot}. Los perros tienen manchas y los dados también: un dado va en el espacio de un perro con los mismos puntos. Completa un perro para puntuarlo; gana quien primero puntúe {n} perros.",
  "Bạn chơi với {bot}. Chó có đốm, xúc xắc có chấm: xúc xắc được đặt vào khoảng trống có cùng số chấm trên con chó. Làm đủ một con chó để ghi điểm; ai ghi điểm {n} con chó trước sẽ thắng.",
  "你同 {bot} 對戰。狗有斑點，骰都有點：骰要放喺狗身上點數一樣嘅空格。填滿一隻狗就可以收；最先收到 {n} 隻狗嘅贏。"),
"Your dog turned over: it counts toward the win and no bust can take it back. New dogs come from the deck.":
 ("Tu perro se dio la vuelta: cuenta para ganar y pasarte ya no te lo quitará. Los perros nuevos salen del mazo.",
  "Con chó của bạn đã được lật lại: nó được tính để thắng và không lần phá sản nào lấy lại được. Chó mới được rút từ bộ bài chó.",
  "你隻狗反轉咗：計入贏嘅數，爆都唔會冇咗。新狗由狗牌疊抽。"),
"Your name": ("Tu nombre", "Tên của bạn", "你個名"),
"Your turn": ("Tu turno", "Lượt của bạn", "你嘅回合"),
"empty space for a {v}": ("espacio vacío para un {v}", "khoảng trống cho xúc xắc {v}", "等緊 {v} 嘅空格"),
"place {v} on {dog}": ("colocar {v} en {dog}", "đặt {v} lên {dog}", "將 {v} 放喺 {dog}"),
"{dog} is full. Slow and steady: at the start of your next turn, score instead of doing a trick. Fast and risky: when every unscored dog of yours is full after a roll, they all score at once and your turn goes on.":
 ("{dog} está completo. Lenta y segura: al empezar tu próximo turno, puntúa en vez de hacer un truco. Rápido y arriesgado: cuando tras una lanzada todos tus perros sin puntuar están completos, puntúan todos enseguida y tu turno sigue.",
  "{dog} đã đủ. Chậm mà chắc: đầu lượt sau, ghi điểm thay vì làm mánh khóe. Nhanh và mạo hiểm: khi sau một lần lăn mọi con chó chưa ghi điểm của bạn đều đủ, tất cả được ghi điểm ngay và lượt tiếp tục.",
  "{dog} 填滿咗。慢慢收：下個回合開始時，唔做 trick 改為收狗。即時收：擲完之後如果你所有未收嘅狗都填滿，就即刻全部收晒，回合繼續。"),
"{who}'s yard went over 7: every die on their unscored dogs and in their yard went back to the supply. Scored dogs are safe.":
 ("El patio de {who} pasó de 7: todos los dados de sus perros sin puntuar y de su patio volvieron a la reserva. Los perros puntuados están a salvo.",
  "Sân của {who} vượt quá 7 nên phá sản: mọi xúc xắc trên những con chó chưa ghi điểm và trong sân đã trở về chồng chung. Chó đã ghi điểm thì an toàn.",
  "{who} 個 yard 超過 7：未收嘅狗身上同 yard 嘅骰全部返咗去公共儲備。收咗嘅狗冇事。"),
"→ {total}": ("→ {total}", "→ {total}", "→ {total}"),
"→ {total}: busts!": ("→ {total}: ¡te pasas!", "→ {total}: phá sản!", "→ {total}：爆！"),
}
import sys
from babel.messages.pofile import read_po, write_po
root = sys.argv[1]
for i, lang in enumerate(["es", "vi", "zh_Hant"]):
    path = f"{root}/src/spots/i18n/locale/{lang}/LC_MESSAGES/spots.po"
    with open(path, "rb") as f:
        cat = read_po(f)
    missing = []
    for m in cat:
        if m.id in T:
            m.string = T[m.id][i]
        elif m.id and not m.string:
            missing.append(m.id)
    with open(path, "wb") as f:
        write_po(f, cat)
    print(lang, "missing", missing)
