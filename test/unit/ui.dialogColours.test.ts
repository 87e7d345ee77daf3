// A pi extension's dialog in its theme's colours: pi's RPC mode passes the terminal's escape codes
// on in the title, the message and the options. The dialog and the event log show them stripped;
// the option sent back is the very string pi sent, even when two options strip to the same label.
import { vscodeStub } from '../helpers/vscodeStub';
import * as assert from 'node:assert/strict';
import type { PageEvent } from '../../src/protocol/messages';
import { stamped } from '../fixtures/hostStream';
import { answerUiRequest } from '../../src/ui/host/extensionUi';
import { LogModel } from '../../src/webview/model';
import type { QuestionEntry } from '../../src/webview/entries';

const accent = (s: string) => `\x1b[38;5;39m${s}\x1b[39m`;
const dim = (s: string) => `\x1b[2m${s}\x1b[22m`;
type Item = { label: string; description?: string };

describe("a pi extension's dialog in its theme's colours", () => {
  beforeEach(() => vscodeStub.reset());

  it('shows the title, message and options without escape codes, and answers with the option as pi sent it', async () => {
    const options = [accent('Deploy'), dim('Deploy'), 'Skip'];
    let offered: Item[] = [];
    vscodeStub.answers.push((items: Item[]) => ((offered = items), items[1]));
    const r = await answerUiRequest({ workerId: 'w1', id: 'u1', method: 'select', title: accent('Release'), message: dim('Pick a target'), options }, 'pi');
    assert.deepEqual(vscodeStub.asked, ['pi: Release']);
    assert.equal(vscodeStub.placeHolders[0], 'Pick a target');
    assert.deepEqual(offered.map((i) => i.label), ['Deploy', 'Deploy', 'Skip']);
    const [a, b] = offered;
    assert.notEqual(`${a?.label} ${a?.description ?? ''}`, `${b?.label} ${b?.description ?? ''}`, 'two options alike once stripped stay told apart');
    assert.deepEqual(r, { value: dim('Deploy') });
  });

  it("a confirm's and an input's title and message show without escape codes", async () => {
    vscodeStub.answers.push('Yes', 'typed');
    assert.deepEqual(await answerUiRequest({ workerId: 'w1', id: 'u2', method: 'confirm', title: accent('Sure?'), message: dim('It deletes') }, 'pi'), { confirmed: true });
    assert.deepEqual(await answerUiRequest({ workerId: 'w1', id: 'u3', method: 'input', title: accent('Name'), message: dim('Your name'), placeholder: dim('e.g. Ada') }, 'pi'), { value: 'typed' });
    assert.deepEqual(vscodeStub.asked, ['pi: Sure?', 'pi: Name']);
    assert.equal(vscodeStub.placeHolders[0], 'It deletes');
    assert.equal(vscodeStub.prompts[0], 'Your name');
    assert.equal(vscodeStub.placeHolders[1], 'e.g. Ada');
  });

  it("the event log's row shows the question, its options and the pick without escape codes", () => {
    const ev = (type: string, fields: Partial<PageEvent>): PageEvent => ({ type, timestamp: 1, ...fields }) as PageEvent;
    const m = new LogModel();
    m.apply(stamped([
      ev('ui_dialog', { title: accent('Release'), data: { id: 'u1', method: 'select', message: dim('Pick a target'), options: [accent('Deploy'), 'Skip'] } }),
      ev('ui_dialog_end', { title: accent('Release'), data: { id: 'u1', outcome: 'answered', answer: accent('Deploy'), note: null } }),
    ]));
    const q = m.all().find((e): e is QuestionEntry => e.kind === 'question');
    assert.ok(q);
    assert.equal(q.title, 'Release');
    assert.equal(q.note, 'Pick a target');
    assert.deepEqual(q.options, ['Deploy', 'Skip']);
    assert.equal(q.answer, 'Deploy');
  });
});
