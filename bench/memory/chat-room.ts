// The soak's chat: N browsers on /ws, one of them saying something every second (inside the flood limit).
import WebSocket from 'ws';

export async function chatRoom(port: number, sockets: number) {
  const open: WebSocket[] = [];
  let received = 0;
  for (let i = 0; i < sockets; i++) {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    socket.on('message', (data) => {
      if (String(data).startsWith('{"type":"chat"')) received++;
    });
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('open', resolve).once('error', resolve));
    open.push(socket);
  }
  let sent = 0;
  const speaker = open[0];
  const timer = setInterval(() => {
    if (speaker?.readyState !== WebSocket.OPEN) return;
    speaker.send(JSON.stringify({ type: 'chat', username: 'Soak', message: `Amen ${++sent}` }));
  }, 1000);
  return {
    stop() {
      clearInterval(timer);
      const stillOpen = open.filter((s) => s.readyState === WebSocket.OPEN).length;
      for (const socket of open) socket.terminate();
      return { sockets: stillOpen, sent, received };
    },
  };
}
